-- The aggregate's tables, for H2 and PostgreSQL. Spring Data JDBC's default naming: table and column names from
-- the class and property names; a List of lines is held by the back reference column "invoice" and the index
-- column "invoice_key". Ids carry no database default: seqgen sets them before the insert.
CREATE TABLE IF NOT EXISTS invoice (
    id       BIGINT       NOT NULL PRIMARY KEY,
    number   BIGINT       NOT NULL UNIQUE,
    customer VARCHAR(100)
);

CREATE TABLE IF NOT EXISTS invoice_line (
    id          BIGINT        NOT NULL PRIMARY KEY,
    invoice     BIGINT        NOT NULL REFERENCES invoice (id),
    invoice_key INT           NOT NULL,
    product     VARCHAR(100),
    amount      NUMERIC(12, 2)
);
