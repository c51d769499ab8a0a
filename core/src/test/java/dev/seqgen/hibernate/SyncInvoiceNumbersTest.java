package dev.seqgen.hibernate;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.StatelessSession;
import org.hibernate.Transaction;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SYNC through Hibernate: concurrent transactions, a third of them rolled back, and the committed invoice
 * numbers are exactly 1..N, consecutive within each transaction, and become visible in number order.
 */
class SyncInvoiceNumbersTest {

    private static final String PREFIX = HibernateTesting.prefix("hsi_");

    private static final int THREADS = 8;
    private static final int TRANSACTIONS_PER_THREAD = 30;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void committedInvoiceNumbersAreGaplessAndVisibleInNumberOrder(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        AtomicInteger committedInvoices = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), Invoice.class)) {
            // Every snapshot a reader takes while invoices are committed must be 1..k: a number becomes visible
            // only after every smaller one, which is what "in commit order" means to a reader (on MariaDB one may
            // become visible late, never lost: NumberOrderReader).
            // The writers start once the reader has taken its first snapshot, so that it reads while they write
            // however the machine schedules the two.
            CountDownLatch reading = new CountDownLatch(1);
            NumberOrderReader order = new NumberOrderReader(db, () -> numbers(db.dataSource()));
            CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> {
                int snapshots = 0;
                do {
                    order.check();
                    snapshots++;
                    reading.countDown();
                } while (running.get());
                return snapshots;
            }, Concurrently.OWN_THREAD);
            assertThat(reading.await(1, TimeUnit.MINUTES)).as("the reader's first snapshot").isTrue();

            long[] committed = Concurrently.run(THREADS, thread -> {
                List<Long> mine = new ArrayList<>();
                for (int t = 0; t < TRANSACTIONS_PER_THREAD; t++) {
                    int tag = thread * 1000 + t;
                    int invoices = 1 + t % 3;
                    boolean rollBack = (thread + t) % 3 == 0;
                    try (Session session = sessionFactory.openSession()) {
                        Transaction transaction = session.beginTransaction();
                        List<Invoice> persisted = new ArrayList<>();
                        for (int i = 0; i < invoices; i++) {
                            Invoice invoice = new Invoice(tag);
                            session.persist(invoice);
                            persisted.add(invoice);
                        }
                        long first = persisted.get(0).number();
                        for (int i = 0; i < persisted.size(); i++) {
                            assertThat(persisted.get(i).number()).as("numbers of one transaction")
                                    .isEqualTo(first + i);
                        }
                        if (rollBack) {
                            if (t % 2 == 0) {
                                session.flush();
                            }
                            transaction.rollback();
                        } else {
                            transaction.commit();
                            persisted.forEach(invoice -> mine.add(invoice.number()));
                            committedInvoices.addAndGet(invoices);
                        }
                    }
                }
                return mine.stream().mapToLong(Long::longValue).toArray();
            });
            running.set(false);
            assertThat(reader.get(1, TimeUnit.MINUTES)).as("snapshots taken").isPositive();

            long[] sorted = Concurrently.assertUnique(committed);
            assertThat(sorted).hasSize(committedInvoices.get());
            Concurrently.assertContiguousFrom(1, sorted);
            assertThat(numbers(db.dataSource())).containsExactly(sorted);
        } finally {
            running.set(false);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoices"))
                    .as("rolled back increments were undone").isEqualTo(committedInvoices.get() + 1L);
            db.dropTable(seqgenTable);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aStatelessSessionTakesSyncNumbersInItsTransactionToo(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), Invoice.class)) {
            Invoice[] committed = {new Invoice(1), new Invoice(1)};
            sessionFactory.inStatelessTransaction(session -> {
                for (Invoice invoice : committed) {
                    session.insert(invoice);
                }
            });
            Invoice rolledBack = new Invoice(2);
            try (StatelessSession session = sessionFactory.openStatelessSession()) {
                Transaction transaction = session.beginTransaction();
                session.insert(rolledBack);
                transaction.rollback();
            }
            Invoice next = new Invoice(3);
            sessionFactory.inStatelessTransaction(session -> session.insert(next));

            assertThat(new long[] {committed[0].number(), committed[1].number(), rolledBack.number(), next.number()})
                    .containsExactly(1, 2, 3, 3);
            assertThat(numbers(db.dataSource())).containsExactly(1, 2, 3);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    private static long[] numbers(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT number FROM " + PREFIX + "invoice ORDER BY number")) {
            List<Long> numbers = new ArrayList<>();
            while (rs.next()) {
                numbers.add(rs.getLong(1));
            }
            return numbers.stream().mapToLong(Long::longValue).toArray();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
