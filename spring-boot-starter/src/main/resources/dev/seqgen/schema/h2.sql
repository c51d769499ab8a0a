-- seqgen sequence table for H2.
-- For Flyway or Liquibase with seqgen.schema.create=false. Rename the table if seqgen.table is not the
-- default; seqgen creates each sequence's row on first use.
CREATE TABLE IF NOT EXISTS seqgen_sequences (
    name       VARCHAR(64) NOT NULL PRIMARY KEY,
    next_value BIGINT      NOT NULL
);
