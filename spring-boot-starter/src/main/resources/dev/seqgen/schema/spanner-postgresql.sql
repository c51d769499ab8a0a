-- seqgen sequence table for Cloud Spanner PostgreSQL-dialect databases, through the Spanner JDBC driver.
-- Spring Boot runs it at start-up with seqgen.jdbc.initialize-schema=always (Spanner is not an embedded
-- database, so the default runs nothing). For migrations, rename the table if seqgen.table is not the default.
CREATE TABLE IF NOT EXISTS seqgen_sequences (
    name       varchar(64) NOT NULL PRIMARY KEY,
    next_value bigint      NOT NULL
);
-- Ranges a stopping instance could not give back to the row (another instance reserved after it), kept for the
-- fleet and handed out once as a later instance's first block. Name it <table>_kept if seqgen.table is renamed.
CREATE TABLE IF NOT EXISTS seqgen_sequences_kept (
    name        varchar(64) NOT NULL,
    range_start bigint      NOT NULL,
    range_end   bigint      NOT NULL,
    PRIMARY KEY (name, range_start)
);
