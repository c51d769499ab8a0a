-- The order service's tables in Cloud Spanner (GoogleSQL), run at start-up by the spanner profile
-- (spring.sql.init). Hibernate maps the entities onto them (ddl-auto=none); seqgen's sequence table comes from
-- seqgen itself (seqgen.schema.initialize=always).
-- The ids come from seqgen sequences. The orders' ids are bit-reversed (seqgen.sequences.orders.key-order in
-- application-spanner.properties), so consecutive orders land in far-apart splits; the other tables keep
-- sequential ids, whose consecutive values land next to each other: fine for a sample, a write hotspot for a
-- busy table on a real instance (docs/spanner.md, "Hotspot-free primary keys").
-- The orders' number is what people read (1, 2, 3, ...), next to the bit-reversed key: not indexed here, since an
-- index on an increasing value is itself ordered by it (add a UNIQUE index if the number must be guarded).
CREATE TABLE IF NOT EXISTS orders (
    id         INT64       NOT NULL,
    number     INT64,
    customer   STRING(100) NOT NULL,
    created_at TIMESTAMP   NOT NULL
) PRIMARY KEY (id);

CREATE TABLE IF NOT EXISTS order_lines (
    id         INT64       NOT NULL,
    order_id   INT64       NOT NULL,
    product    STRING(100) NOT NULL,
    quantity   INT64       NOT NULL,
    unit_price NUMERIC     NOT NULL,
    CONSTRAINT fk_order_lines_order FOREIGN KEY (order_id) REFERENCES orders (id)
) PRIMARY KEY (id);

CREATE TABLE IF NOT EXISTS order_events (
    id       INT64      NOT NULL,
    order_id INT64      NOT NULL,
    type     STRING(20) NOT NULL,
    `at`     TIMESTAMP  NOT NULL,
    CONSTRAINT fk_order_events_order FOREIGN KEY (order_id) REFERENCES orders (id)
) PRIMARY KEY (id);

-- Invoices are numbered per issuing company and year of the issue date (INV-ACME-2026-000042): the unique index
-- on the formatted number, which holds company, year and counter, proves no number was issued twice.
CREATE TABLE IF NOT EXISTS invoices (
    id         INT64      NOT NULL,
    company    STRING(10) NOT NULL,
    issue_date DATE       NOT NULL,
    number     STRING(40) NOT NULL,
    order_id   INT64      NOT NULL,
    total      NUMERIC    NOT NULL,
    issued_at  TIMESTAMP  NOT NULL,
    CONSTRAINT fk_invoices_order FOREIGN KEY (order_id) REFERENCES orders (id)
) PRIMARY KEY (id);

CREATE UNIQUE INDEX IF NOT EXISTS invoices_number ON invoices (number);

CREATE UNIQUE INDEX IF NOT EXISTS invoices_order_id ON invoices (order_id);
