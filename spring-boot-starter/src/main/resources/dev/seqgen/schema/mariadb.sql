-- seqgen sequence table for MariaDB and MySQL (InnoDB: reservations are transactions).
-- Spring Boot runs it at start-up as seqgen.jdbc.initialize-schema says (embedded databases only, by
-- default). For Flyway or Liquibase (initialize-schema=never), rename the table if seqgen.table is not the
-- default; seqgen creates each sequence's row on first use.
CREATE TABLE IF NOT EXISTS seqgen_sequences (
    name       VARCHAR(64) NOT NULL PRIMARY KEY,
    next_value BIGINT      NOT NULL
) ENGINE = InnoDB;
-- Ranges a stopping instance could not give back to the row (another instance reserved after it), kept for the
-- fleet and handed out once as a later instance's first block. Name it <table>_kept if seqgen.table is renamed.
CREATE TABLE IF NOT EXISTS seqgen_sequences_kept (
    name        VARCHAR(64) NOT NULL,
    range_start BIGINT      NOT NULL,
    range_end   BIGINT      NOT NULL,
    PRIMARY KEY (name, range_start)
) ENGINE = InnoDB;
