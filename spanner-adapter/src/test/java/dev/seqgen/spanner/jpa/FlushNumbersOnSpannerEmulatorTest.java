package dev.seqgen.spanner.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.spanner.jdbc.SpannerJdbcClients;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * SYNC {@code @SeqgenNumber}s reserved per flush on Cloud Spanner (the emulator), through the Spanner JDBC driver
 * with {@code auto_batch_dml=true} as Google's samples use it and Hibernate's JDBC batching: 4 threads,
 * transactions of 1 to 20 invoices and credit notes (two sequences in each flush), a third rolled back before or
 * after their flush, some flushed early by a query, aborted transactions retried as a whole. The committed
 * numbers are exactly 1..n per sequence, and consecutive in insertion order within each transaction.
 */
class FlushNumbersOnSpannerEmulatorTest {

    /** Closes the Spanner JDBC driver's clients while the emulator's database is there ({@link SpannerJdbcClients}). */
    @AfterAll
    static void closeSpannerJdbcClients() {
        SpannerJdbcClients.close();
    }

    /**
     * Fewer than the 16 of the other databases' test: the emulator runs one read-write transaction at a time and
     * aborts the others, so 16 threads spend their time in aborts and retries (a run did not finish in 10 minutes
     * on a loaded 2-core machine); what is checked is the same.
     */
    private static final int THREADS = 4;
    private static final int TRANSACTIONS_PER_THREAD = 6;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void numbersReservedPerFlushAreGaplessAndInInsertOrder() throws Exception {
        String host = SpannerEmulatorHost.host();
        if (host == null) {
            Servers.missing(SpannerEmulatorHost.NO_EMULATOR);
            return;
        }
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl("jdbc:cloudspanner://" + host + "/projects/seqgen-test/instances/seqgen-test/databases/flush-"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36).substring(0, 8)
                + "?autoConfigEmulator=true;auto_batch_dml=true");
        pool.setMaximumPoolSize(THREADS + 2);
        try (HikariDataSource dataSource = new HikariDataSource(pool)) {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE SpannerNumberedInvoice (id INT64 NOT NULL, number INT64 NOT NULL)"
                        + " PRIMARY KEY (id)");
                statement.execute("CREATE TABLE SpannerNumberedCreditNote (id INT64 NOT NULL, number INT64 NOT NULL)"
                        + " PRIMARY KEY (id)");
            }
            Configuration configuration = new Configuration().addAnnotatedClass(SpannerNumberedInvoice.class)
                    .addAnnotatedClass(SpannerNumberedCreditNote.class);
            configuration.getProperties().put(AvailableSettings.DATASOURCE, dataSource);
            configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
            configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
            configuration.getProperties().put(AvailableSettings.STATEMENT_BATCH_SIZE, 50);
            configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
            List<Long> invoiceNumbers = Collections.synchronizedList(new ArrayList<>());
            List<Long> creditNoteNumbers = Collections.synchronizedList(new ArrayList<>());
            try (SessionFactory sessionFactory = configuration.buildSessionFactory()) {
                // The emulator runs one read-write transaction at a time and aborts the others; a sequence's row is
                // created at its first value, so one transaction starts the sequences before the threads do, as
                // an application's first request would.
                sessionFactory.inTransaction(session -> {
                    SpannerNumberedInvoice invoice = new SpannerNumberedInvoice();
                    SpannerNumberedCreditNote creditNote = new SpannerNumberedCreditNote();
                    session.persist(invoice);
                    session.persist(creditNote);
                    session.flush();
                    invoiceNumbers.add(invoice.getNumber());
                    creditNoteNumbers.add(creditNote.getNumber());
                });
                Concurrently.run(THREADS, thread -> {
                    for (int t = 0; t < TRANSACTIONS_PER_THREAD; t++) {
                        int entities = 1 + (thread * 7 + t * 5) % 20;
                        boolean rollBack = (thread + t) % 3 == 0;
                        boolean flushBeforeRollback = t % 2 == 0;
                        boolean queryInTheMiddle = (thread + t) % 4 == 1;
                        for (int attempt = 1; ; attempt++) {
                            try (Session session = sessionFactory.openSession()) {
                                Transaction transaction = session.beginTransaction();
                                try {
                                    List<SpannerNumberedInvoice> invoices = new ArrayList<>();
                                    List<SpannerNumberedCreditNote> creditNotes = new ArrayList<>();
                                    for (int i = 0; i < entities; i++) {
                                        if (i % 3 == 2) {
                                            SpannerNumberedCreditNote creditNote = new SpannerNumberedCreditNote();
                                            session.persist(creditNote);
                                            creditNotes.add(creditNote);
                                        } else {
                                            SpannerNumberedInvoice invoice = new SpannerNumberedInvoice();
                                            session.persist(invoice);
                                            invoices.add(invoice);
                                        }
                                        if (queryInTheMiddle && i == 0) {
                                            session.createSelectionQuery("select count(i) from SpannerNumberedInvoice i",
                                                    Long.class).getSingleResult();
                                            assertThat(invoices.get(0).getNumber()).as("flushed early").isNotNull();
                                        }
                                    }
                                    if (rollBack) {
                                        if (flushBeforeRollback) {
                                            session.flush();
                                            assertConsecutive(invoices, SpannerNumberedInvoice::getNumber);
                                            assertConsecutive(creditNotes, SpannerNumberedCreditNote::getNumber);
                                        }
                                        transaction.rollback();
                                    } else {
                                        transaction.commit();
                                        assertConsecutive(invoices, SpannerNumberedInvoice::getNumber);
                                        assertConsecutive(creditNotes, SpannerNumberedCreditNote::getNumber);
                                        invoices.forEach(invoice -> invoiceNumbers.add(invoice.getNumber()));
                                        creditNotes.forEach(note -> creditNoteNumbers.add(note.getNumber()));
                                    }
                                    break;
                                } catch (RuntimeException e) {
                                    if (transaction.isActive()) {
                                        transaction.rollback();
                                    }
                                    if (!JpaOnSpannerEmulatorTest.aborted(e) || attempt == 100) {
                                        throw e;
                                    }
                                }
                            }
                        }
                    }
                    return new long[0];
                });
            }
            assertGaplessAndStored(dataSource, "SpannerNumberedInvoice", invoiceNumbers);
            assertGaplessAndStored(dataSource, "SpannerNumberedCreditNote", creditNoteNumbers);
            assertThat(invoiceNumbers.size() + creditNoteNumbers.size()).as("numbered entities committed")
                    .isGreaterThan(THREADS);
        }
    }

    private static <E> void assertConsecutive(List<E> entities, Function<E, Long> number) {
        for (int i = 1; i < entities.size(); i++) {
            assertThat(number.apply(entities.get(i))).as("numbers of one transaction, in insertion order")
                    .isEqualTo(number.apply(entities.get(0)) + i);
        }
    }

    private static void assertGaplessAndStored(HikariDataSource dataSource, String table, List<Long> committed)
            throws SQLException {
        long[] sorted = Concurrently.assertUnique(committed.stream().mapToLong(Long::longValue).toArray());
        Concurrently.assertContiguousFrom(1, sorted);
        List<Long> stored = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT number FROM " + table + " ORDER BY number")) {
            while (rs.next()) {
                stored.add(rs.getLong(1));
            }
        }
        assertThat(stored).as(table + " rows").containsExactlyElementsOf(
                java.util.Arrays.stream(sorted).boxed().toList());
    }
}
