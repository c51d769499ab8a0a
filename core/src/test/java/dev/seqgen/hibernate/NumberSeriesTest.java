package dev.seqgen.hibernate;

import static dev.seqgen.hibernate.HibernateTesting.insert;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Numbers in series through Hibernate: per tenant under partitioned multi-tenancy ({@code @TenantId}), per company
 * and year of the document's own date ({@code seriesBy}). Each series is gapless on its own under concurrent
 * transactions with rollbacks, starts above the numbers its rows already hold, and a key that cannot be made
 * fails the flush before anything is written.
 */
class NumberSeriesTest {

    private static final String PREFIX = HibernateTesting.prefix("hns_");

    /**
     * Two tenants creating invoices from four threads each, every fourth transaction rolled back after its flush:
     * each tenant's numbers are 1..n without a gap, ids are unique across tenants.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void eachTenantsNumbersAreGaplessOnTheirOwn(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory factory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                TenantInvoice.class)) {
            List<Long> ids = java.util.Collections.synchronizedList(new ArrayList<>());
            Map<String, List<Long>> committed = new TreeMap<>();
            committed.put("acme", java.util.Collections.synchronizedList(new ArrayList<>()));
            committed.put("globex", java.util.Collections.synchronizedList(new ArrayList<>()));
            Concurrently.run(8, thread -> {
                String tenant = thread % 2 == 0 ? "acme" : "globex";
                for (int t = 0; t < 12; t++) {
                    try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
                        Transaction transaction = session.beginTransaction();
                        List<TenantInvoice> invoices = new ArrayList<>();
                        for (int i = 0; i <= t % 2; i++) {
                            TenantInvoice invoice = new TenantInvoice(thread);
                            session.persist(invoice);
                            invoices.add(invoice);
                        }
                        session.flush();
                        if (t % 4 == 3) {
                            transaction.rollback();
                        } else {
                            transaction.commit();
                            invoices.forEach(invoice -> {
                                committed.get(tenant).add(invoice.number());
                                ids.add(invoice.id());
                            });
                        }
                    }
                }
                return new long[0];
            });

            Concurrently.assertUnique(ids.stream().mapToLong(Long::longValue).toArray());
            Map<String, List<Long>> stored = numbersByTenant(db.dataSource(), PREFIX + "tenant_invoice");
            for (String tenant : committed.keySet()) {
                long[] numbers = Concurrently.assertUnique(committed.get(tenant).stream().mapToLong(Long::longValue)
                        .toArray());
                assertThat(numbers).as("%s: 4 threads x 12 committed invoices", tenant).hasSize(48);
                Concurrently.assertContiguousFrom(1, numbers);
                assertThat(stored.get(tenant)).as("%s in the table", tenant).hasSize(numbers.length);
                assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable,
                        "tenant_invoice_numbers#" + tenant)).as("%s's row", tenant).isEqualTo(numbers.length + 1L);
            }
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /** A tenant whose invoices are already in the table (an application adopting seqgen) continues above them. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aTenantsSeriesStartsAboveTheNumbersItsRowsHold(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        String table = PREFIX + "tenant_invoice";
        try (SessionFactory factory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                TenantInvoice.class)) {
            insert(db.dataSource(), "INSERT INTO " + table + " (id, tenant, number, tag) VALUES (?, ?, ?, 0)",
                    new Object[] { 900_001L, "acme", 41L }, new Object[] { 900_002L, "acme", 7L },
                    new Object[] { 900_003L, "other", 500L });

            assertThat(persistFor(factory, "acme").number()).as("above acme's 41, not other's 500").isEqualTo(42);
            assertThat(persistFor(factory, "globex").number()).as("globex has no rows yet").isEqualTo(1);
            assertThat(persistFor(factory, "acme").number()).isEqualTo(43);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * Per issuing company and fiscal year of the invoice's own date: a flush of several series takes one increment
     * per series; the rows already in a series are adopted.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void numbersRestartPerCompanyAndYearOfTheDocumentsDate(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        String table = PREFIX + "series_invoice";
        try (SessionFactory factory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                SeriesInvoice.class)) {
            insert(db.dataSource(), "INSERT INTO " + table + " (id, company, issueDate, number) VALUES (?, ?, ?, ?)",
                    new Object[] { 900_001L, "ACME", LocalDate.of(2024, 6, 1), 17L });
            List<SeriesInvoice> first = new ArrayList<>();
            HibernateTesting.inTransaction(factory, session -> {
                for (SeriesInvoice invoice : List.of(new SeriesInvoice("ACME", LocalDate.of(2025, 12, 31)),
                        new SeriesInvoice("ACME", LocalDate.of(2026, 1, 2)),
                        new SeriesInvoice("Globex Ltd.", LocalDate.of(2026, 1, 1)),
                        new SeriesInvoice("ACME", LocalDate.of(2026, 5, 1)),
                        new SeriesInvoice("ACME", LocalDate.of(2024, 12, 31)))) {
                    session.persist(invoice);
                    first.add(invoice);
                }
            });
            assertThat(first).extracting(SeriesInvoice::number).containsExactly(1L, 1L, 1L, 2L, 18L);

            SeriesInvoice later = new SeriesInvoice("ACME", LocalDate.of(2026, 12, 31));
            HibernateTesting.inTransaction(factory, session -> session.persist(later));
            assertThat(later.number()).isEqualTo(3);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "series_invoice_numbers#ACME/2026"))
                    .isEqualTo(4);
            assertThat(SchemaPerTenantTest.rows(db.dataSource(), seqgenTable))
                    .as("a sequence numbered in series only has no row of its own, which nobody would take from")
                    .contains("series_invoice_ids", "series_invoice_numbers#ACME/2026")
                    .doesNotContain("series_invoice_numbers");
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * An invoice and a credit note numbered in one series, first used in one transaction, the credit notes' table
     * (dated by a timestamp) holding a number of the series above the invoices' (8 against 5): the series' first
     * opening reads both tables, each with its own date bounds, and starts above 8 before the invoice takes its
     * number; the credit note's opening then finds the row above its table. Read only then, the row would have to
     * move, an update waiting for the row lock of that very transaction.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void twoTablesNumberedInOneSeriesOpenItInOneTransactionWithoutWaitingForThemselves(TestDatabase db)
            throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory factory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                SeriesInvoice.class, SeriesCreditNote.class)) {
            insert(db.dataSource(), "INSERT INTO " + PREFIX + "series_invoice (id, company, issueDate, number) VALUES"
                    + " (?, ?, ?, ?)", new Object[] { 900_001L, "ACME", LocalDate.of(2026, 2, 1), 5L });
            insert(db.dataSource(), "INSERT INTO " + PREFIX + "series_credit_note (id, company, issuedAt, number)"
                    + " VALUES (?, ?, ?, ?)",
                    new Object[] { 900_001L, "ACME", LocalDateTime.of(2026, 3, 1, 9, 30), 8L },
                    new Object[] { 900_002L, "ACME", LocalDateTime.of(2027, 1, 1, 0, 0), 50L });
            SeriesInvoice invoice = new SeriesInvoice("ACME", LocalDate.of(2026, 6, 1));
            SeriesCreditNote note = new SeriesCreditNote("ACME", LocalDateTime.of(2026, 12, 31, 23, 59));
            HibernateTesting.inTransaction(factory, session -> {
                session.persist(invoice);
                session.flush();
                session.persist(note);
                session.flush();
            });
            assertThat(List.of(invoice.number(), note.number())).as("above 8, not above 2027's 50")
                    .containsExactly(9L, 10L);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /** Formatted numbers per year: a series continues above the numbers its rows hold, read back with the pattern. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void formattedNumbersContinueAboveTheFormattedNumbersOfTheirSeries(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        String table = PREFIX + "formatted_invoice";
        try (SessionFactory factory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                FormattedInvoice.class)) {
            insert(db.dataSource(), "INSERT INTO " + table + " (id, issueDate, number) VALUES (?, ?, ?)",
                    new Object[] { 900_001L, LocalDate.of(2026, 2, 1), "INV-2026-000041" },
                    new Object[] { 900_002L, LocalDate.of(2026, 3, 1), "MANUAL-900" },
                    new Object[] { 900_003L, LocalDate.of(2025, 3, 1), "INV-2025-000300" });
            List<FormattedInvoice> invoices = List.of(new FormattedInvoice(LocalDate.of(2026, 6, 1)),
                    new FormattedInvoice(LocalDate.of(2027, 1, 1)), new FormattedInvoice(LocalDate.of(2026, 6, 2)));
            HibernateTesting.inTransaction(factory, session -> invoices.forEach(session::persist));

            assertThat(invoices).extracting(FormattedInvoice::number)
                    .containsExactly("INV-2026-000042", "INV-2027-000001", "INV-2026-000043");
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "formatted_invoice_numbers#2026"))
                    .as("the counter underneath is numeric").isEqualTo(44);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * Formatted numbers of one series in two tables, first used in one transaction: the sequence reads both tables
     * back with their patterns when it opens, before the note takes its number, and continues above the receipts'
     * RC-0050 (MANUAL-900 is not of the pattern).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void formattedNumbersOfOneSeriesContinueAboveEveryTableTheSequenceFormats(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory factory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                FormattedNote.class, FormattedReceipt.class)) {
            insert(db.dataSource(), "INSERT INTO " + PREFIX + "formatted_note (id, number) VALUES (?, ?)",
                    new Object[] { 1L, "CN-0041" });
            insert(db.dataSource(), "INSERT INTO " + PREFIX + "formatted_receipt (id, number) VALUES (?, ?)",
                    new Object[] { 1L, "RC-0050" }, new Object[] { 2L, "MANUAL-900" });
            FormattedNote note = new FormattedNote(2);
            FormattedReceipt receipt = new FormattedReceipt(3);
            HibernateTesting.inTransaction(factory, session -> {
                session.persist(note);
                session.flush();
                session.persist(receipt);
                session.flush();
            });
            assertThat(List.of(note.number(), receipt.number())).containsExactly("CN-0051", "RC-0052");
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /** A value a series key cannot hold fails the flush naming the entity, the attribute and the value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aKeyThatCannotBeMadeFailsBeforeAnythingIsWritten(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory factory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                SeriesInvoice.class)) {
            assertThatThrownBy(() -> HibernateTesting.inTransaction(factory, session -> {
                session.persist(new SeriesInvoice("ACME", LocalDate.of(2026, 1, 1)));
                session.persist(new SeriesInvoice("ACME/IT", LocalDate.of(2026, 1, 1)));
            })).satisfies(e -> assertThat(HibernateTesting.messages(e))
                    .contains("entity " + SeriesInvoice.class.getName(), "'number'",
                            "sequence 'series_invoice_numbers'", "attribute 'company'", "'ACME/IT'",
                            "cannot hold '/'"));
            assertThat(count(db.dataSource(), PREFIX + "series_invoice")).as("nothing inserted").isZero();
            assertThat(rows(db.dataSource(), seqgenTable)).as("no series row of a refused key")
                    .noneMatch(row -> row.contains("ACME/IT"));
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    private static TenantInvoice persistFor(SessionFactory factory, String tenant) {
        TenantInvoice invoice = new TenantInvoice(0);
        try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
            Transaction transaction = session.beginTransaction();
            session.persist(invoice);
            transaction.commit();
        }
        return invoice;
    }

    private static Map<String, List<Long>> numbersByTenant(DataSource dataSource, String table) throws Exception {
        Map<String, List<Long>> numbers = new TreeMap<>();
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT tenant, number FROM " + table + " ORDER BY number")) {
            while (rs.next()) {
                numbers.computeIfAbsent(rs.getString(1), tenant -> new ArrayList<>()).add(rs.getLong(2));
            }
        }
        return numbers;
    }

    private static long count(DataSource dataSource, String table) throws Exception {
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> rows(DataSource dataSource, String seqgenTable) throws Exception {
        List<String> names = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT name FROM " + seqgenTable)) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names;
    }
}
