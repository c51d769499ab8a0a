-- seqgen sequence table for Cloud Spanner (GoogleSQL), through the Spanner JDBC driver.
-- Spring Boot runs it at start-up with seqgen.jdbc.initialize-schema=always (Spanner is not an embedded
-- database, so the default runs nothing). For migrations, rename the table if seqgen.table is not the default.
CREATE TABLE IF NOT EXISTS seqgen_sequences (
    name       STRING(64) NOT NULL,
    next_value INT64      NOT NULL
) PRIMARY KEY (name);
-- Ranges a stopping instance could not give back to the row (another instance reserved after it), kept for the
-- fleet and handed out once as a later instance's first block. Name it <table>_kept if seqgen.table is renamed.
CREATE TABLE IF NOT EXISTS seqgen_sequences_kept (
    name        STRING(64) NOT NULL,
    range_start INT64      NOT NULL,
    range_end   INT64      NOT NULL
) PRIMARY KEY (name, range_start);
