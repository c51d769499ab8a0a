package dev.seqgen.hibernate;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link SeqgenNumber}: business numbers on a non-id attribute, taken when Hibernate executes the insert (at
 * flush), with SYNC's increment in the session's transaction.
 */
class FlushTimeNumbersTest {

    private static final String PREFIX = "hfn_";
    private static final String INVOICES = PREFIX + "numbered_invoice";
    private static final int THREADS = 16;
    private static final int TRANSACTIONS_PER_THREAD = 12;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theNumberIsTakenAtFlushNotAtPersistAndConsecutiveInInsertOrder(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), NumberedInvoice.class)) {
            List<NumberedInvoice> invoices = new ArrayList<>();
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < 3; i++) {
                    NumberedInvoice invoice = new NumberedInvoice(1);
                    session.persist(invoice);
                    invoices.add(invoice);
                }
                assertThat(invoices).as("after persist(): ids known, numbers not taken")
                        .allSatisfy(invoice -> {
                            assertThat(invoice.id()).isNotNull();
                            assertThat(invoice.number()).isNull();
                        });
                assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"))
                        .as("the row, read by another connection, before the flush").isEqualTo(1);
                session.flush();
                assertThat(invoices).extracting(NumberedInvoice::number).as("after flush(), in persist order")
                        .containsExactly(1L, 2L, 3L);
            });
            assertThat(numbers(db.dataSource())).containsExactly(1, 2, 3);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aQueryThatFlushesEarlyTakesTheNumbersThenAndTheyStayGapless(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), NumberedInvoice.class)) {
            NumberedInvoice rolledBack = new NumberedInvoice(1);
            try (Session session = sessionFactory.openSession()) {
                Transaction transaction = session.beginTransaction();
                session.persist(rolledBack);
                session.createQuery("select count(i) from NumberedInvoice i", Long.class).getSingleResult();
                assertThat(rolledBack.number()).as("taken by the query's AUTO flush").isEqualTo(1L);
                transaction.rollback();
            }
            List<NumberedInvoice> committed = new ArrayList<>();
            HibernateTesting.inTransaction(sessionFactory, session -> {
                NumberedInvoice first = new NumberedInvoice(2);
                session.persist(first);
                committed.add(first);
                long seen = session.createQuery("select count(i) from NumberedInvoice i", Long.class)
                        .getSingleResult();
                assertThat(seen).as("the query sees the flushed invoice").isEqualTo(1);
                assertThat(first.number()).as("taken by the query's AUTO flush").isEqualTo(1L);
                NumberedInvoice second = new NumberedInvoice(2);
                session.persist(second);
                committed.add(second);
                assertThat(second.number()).as("not yet flushed").isNull();
            });
            assertThat(committed).extracting(NumberedInvoice::number).containsExactly(1L, 2L);
            assertThat(numbers(db.dataSource())).containsExactly(1, 2);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers")).isEqualTo(3);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * 16 threads; a third of the transactions roll back, half of those before their flush (no number was ever
     * taken) and half after it; some run a query in the middle that flushes early. Committed numbers are exactly
     * 1..n, consecutive within a transaction, and a reader only ever sees a prefix 1..k: they commit in number
     * order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void committedFlushTimeNumbersAreGaplessAndCommitInNumberOrder(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        AtomicInteger committedInvoices = new AtomicInteger();
        AtomicInteger earlyFlushes = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), NumberedInvoice.class)) {
            // The writers start once the reader has taken its first snapshot, so that it reads while they write
            // however the machine schedules the two.
            CountDownLatch reading = new CountDownLatch(1);
            CompletableFuture<Integer> reader = CompletableFuture.supplyAsync(() -> {
                int snapshots = 0;
                do {
                    assertPrefix(numbers(db.dataSource()));
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
                    boolean queryInTheMiddle = (thread + t) % 4 == 1;
                    try (Session session = sessionFactory.openSession()) {
                        Transaction transaction = session.beginTransaction();
                        List<NumberedInvoice> persisted = new ArrayList<>();
                        for (int i = 0; i < invoices; i++) {
                            NumberedInvoice invoice = new NumberedInvoice(tag);
                            session.persist(invoice);
                            persisted.add(invoice);
                            if (queryInTheMiddle && i == 0) {
                                session.createQuery("select count(i) from NumberedInvoice i where i.transactionTag"
                                        + " = :tag", Long.class).setParameter("tag", tag).getSingleResult();
                                assertThat(invoice.number()).as("flushed early by the query").isNotNull();
                                earlyFlushes.incrementAndGet();
                            }
                        }
                        if (rollBack) {
                            if (t % 2 == 0) {
                                session.flush();
                                assertConsecutive(persisted);
                            } else if (!queryInTheMiddle) {
                                assertThat(persisted).as("never flushed: no number taken")
                                        .allSatisfy(invoice -> assertThat(invoice.number()).isNull());
                            }
                            transaction.rollback();
                        } else {
                            transaction.commit();
                            assertConsecutive(persisted);
                            persisted.forEach(invoice -> mine.add(invoice.number()));
                            committedInvoices.addAndGet(invoices);
                        }
                    }
                }
                return mine.stream().mapToLong(Long::longValue).toArray();
            });
            running.set(false);
            assertThat(reader.get(1, TimeUnit.MINUTES)).as("snapshots taken").isPositive();
            assertThat(earlyFlushes.get()).as("transactions flushed early by a query").isPositive();

            long[] sorted = Concurrently.assertUnique(committed);
            assertThat(sorted).hasSize(committedInvoices.get());
            Concurrently.assertContiguousFrom(1, sorted);
            assertThat(numbers(db.dataSource())).containsExactly(sorted);
        } finally {
            running.set(false);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"))
                    .as("rolled back increments were undone").isEqualTo(committedInvoices.get() + 1L);
            db.dropTable(seqgenTable);
        }
    }

    /**
     * The id is known at persist() and the number is set just before each insert, so the inserts still go out
     * as JDBC batches: the SYNC increment between two rows runs on the same connection without executing the
     * pending batch.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void insertsStillGoOutAsJdbcBatches(TestDatabase db) {
        int entities = 200;
        int batchSize = 50;
        String seqgenTable = TestDatabase.uniqueTable();
        StatementCounter inserts = new StatementCounter("insert into " + INVOICES);
        List<NumberedInvoice> persisted = new ArrayList<>();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(inserts.wrap(db.dataSource()), PREFIX,
                seqgenTable, Map.of(AvailableSettings.STATEMENT_BATCH_SIZE, batchSize), NumberedInvoice.class)) {
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < entities; i++) {
                    NumberedInvoice invoice = new NumberedInvoice(0);
                    session.persist(invoice);
                    persisted.add(invoice);
                }
            });
            assertThat(numbers(db.dataSource())).hasSize(entities);
        } finally {
            db.dropTable(seqgenTable);
        }
        assertThat(persisted).extracting(NumberedInvoice::number).as("consecutive, in insert order")
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, entities).boxed().toList());
        assertThat(inserts.rowsBatched).as("insert rows added to JDBC batches").hasValue(entities);
        assertThat(inserts.batchesExecuted).as("JDBC batches executed").hasValue(entities / batchSize);
        assertThat(inserts.executedSingly).as("inserts executed one by one").hasValue(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void everyStrategyNumbersANonIdAttributeOfEveryType(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        List<MultiNumbered> all = new ArrayList<>();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), MultiNumbered.class)) {
            for (int t = 0; t < 5; t++) {
                HibernateTesting.inTransaction(sessionFactory, session -> {
                    for (int i = 0; i < 20; i++) {
                        MultiNumbered entity = new MultiNumbered();
                        session.persist(entity);
                        all.add(entity);
                    }
                });
            }
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "multi_numbered_async_number"))
                    .as("the default sequence name: entity and attribute in snake_case").isEqualTo(101);
        } finally {
            db.dropTable(seqgenTable);
        }
        assertUniquePositive("ASYNC Long", all.stream().map(MultiNumbered::asyncNumber).map(Long::valueOf).toList());
        assertUniquePositive("BATCH long", all.stream().map(MultiNumbered::batchNumber).toList());
        assertUniquePositive("ASYNC_BATCH Integer",
                all.stream().map(MultiNumbered::asyncBatchNumber).map(Long::valueOf).toList());
        assertThat(all).extracting(MultiNumbered::syncNumber).as("SYNC int, one transaction after another")
                .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, 100).boxed().toList());
    }

    @Test
    void aNumberOnAnUnsupportedTypeFailsAtStartupNamingTheProperty() {
        String seqgenTable = TestDatabase.uniqueTable();
        assertThatThrownBy(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX, seqgenTable,
                Map.of(), StringNumbered.class).close())
                .satisfies(thrown -> assertThat(HibernateTesting.messages(thrown))
                        .contains("entity dev.seqgen.hibernate.StringNumbered, property 'code'")
                        .contains("@SeqgenNumber generates long/Long and int/Integer attributes, not java.lang.String"));
        TestDatabase.H2.dropTable(seqgenTable);
    }

    private static void assertUniquePositive(String what, List<Long> values) {
        Set<Long> unique = new HashSet<>(values);
        assertThat(unique).as(what + " unique").hasSize(values.size());
        assertThat(values).as(what + " positive").allSatisfy(value -> assertThat(value).isPositive());
    }

    private static void assertConsecutive(List<NumberedInvoice> persisted) {
        long first = persisted.get(0).number();
        for (int i = 0; i < persisted.size(); i++) {
            assertThat(persisted.get(i).number()).as("numbers of one transaction, in insert order")
                    .isEqualTo(first + i);
        }
    }

    private static void assertPrefix(long[] numbers) {
        for (int i = 0; i < numbers.length; i++) {
            if (numbers[i] != i + 1) {
                throw new AssertionError("a reader saw invoice number " + numbers[i] + " before number " + (i + 1)
                        + " was visible: " + numbers.length + " invoices visible");
            }
        }
    }

    private static long[] numbers(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT number FROM " + INVOICES + " ORDER BY number")) {
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
