package dev.seqgen.hibernate;

import dev.seqgen.KeyOrder;
import dev.seqgen.KeyRange;
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

    private static final String PREFIX = HibernateTesting.prefix("hfn_");
    private static final String INVOICES = PREFIX + "numbered_invoice";
    private static final String CREDIT_NOTES = PREFIX + "numbered_credit_note";
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
            assertThat(numbers(db.dataSource(), INVOICES)).containsExactly(1, 2, 3);
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
            assertThat(numbers(db.dataSource(), INVOICES)).containsExactly(1, 2);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers")).isEqualTo(3);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * A query on a table the pending inserts do not write: Hibernate's AUTO flush begins, finds nothing the query
     * needs and executes nothing, and so reserves no number either; the flush at commit does.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void anAutoFlushThatExecutesNothingReservesNothing(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), NumberedInvoice.class, AsyncBatchTicket.class)) {
            List<NumberedInvoice> invoices = new ArrayList<>();
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < 3; i++) {
                    NumberedInvoice invoice = new NumberedInvoice(0);
                    session.persist(invoice);
                    invoices.add(invoice);
                }
                session.createQuery("select count(t) from AsyncBatchTicket t", Long.class).getSingleResult();
                assertThat(invoices).as("after a query on another table: not flushed, no number")
                        .allSatisfy(invoice -> assertThat(invoice.number()).isNull());
                assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"))
                        .as("the row, read by another connection, after the query").isEqualTo(1);
            });
            assertThat(invoices).extracting(NumberedInvoice::number).as("taken by the flush at commit")
                    .containsExactly(1L, 2L, 3L);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers")).isEqualTo(4);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * 16 threads; transactions of 1 to 20 entities, invoices and credit notes mixed, so that each flush draws
     * from two SYNC sequences; a third of the transactions roll back, half of those before their flush (no number
     * was ever taken) and half after it; some run a query in the middle that flushes early. Committed numbers are
     * exactly 1..n per sequence, consecutive within a transaction in insertion order, and a reader only ever sees
     * a prefix 1..k of the invoice numbers: they commit in number order (on MariaDB a number may become visible late,
     * never lost: {@link NumberOrderReader}).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void committedFlushTimeNumbersAreGaplessAndCommitInNumberOrder(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        AtomicInteger committedInvoices = new AtomicInteger();
        AtomicInteger committedCreditNotes = new AtomicInteger();
        AtomicInteger earlyFlushes = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        List<Long> creditNoteNumbers = java.util.Collections.synchronizedList(new ArrayList<>());
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), NumberedInvoice.class, NumberedCreditNote.class)) {
            // The writers start once the reader has taken its first snapshot, so that it reads while they write
            // however the machine schedules the two.
            CountDownLatch reading = new CountDownLatch(1);
            NumberOrderReader order = new NumberOrderReader(db, () -> numbers(db.dataSource(), INVOICES));
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
                    int entities = 1 + (thread * 7 + t * 5) % 20;
                    boolean rollBack = (thread + t) % 3 == 0;
                    boolean queryInTheMiddle = (thread + t) % 4 == 1;
                    try (Session session = sessionFactory.openSession()) {
                        Transaction transaction = session.beginTransaction();
                        List<NumberedInvoice> invoices = new ArrayList<>();
                        List<NumberedCreditNote> creditNotes = new ArrayList<>();
                        for (int i = 0; i < entities; i++) {
                            if (i % 3 == 2) {
                                NumberedCreditNote creditNote = new NumberedCreditNote(tag);
                                session.persist(creditNote);
                                creditNotes.add(creditNote);
                            } else {
                                NumberedInvoice invoice = new NumberedInvoice(tag);
                                session.persist(invoice);
                                invoices.add(invoice);
                            }
                            if (queryInTheMiddle && i == 0) {
                                session.createQuery("select count(i) from NumberedInvoice i where i.transactionTag"
                                        + " = :tag", Long.class).setParameter("tag", tag).getSingleResult();
                                assertThat(invoices.get(0).number()).as("flushed early by the query").isNotNull();
                                earlyFlushes.incrementAndGet();
                            }
                        }
                        if (rollBack) {
                            if (t % 2 == 0) {
                                session.flush();
                                assertConsecutive(invoices, NumberedInvoice::number);
                                assertConsecutive(creditNotes, NumberedCreditNote::number);
                            } else if (!queryInTheMiddle) {
                                assertThat(invoices).as("never flushed: no number taken")
                                        .allSatisfy(invoice -> assertThat(invoice.number()).isNull());
                            }
                            transaction.rollback();
                        } else {
                            transaction.commit();
                            assertConsecutive(invoices, NumberedInvoice::number);
                            assertConsecutive(creditNotes, NumberedCreditNote::number);
                            invoices.forEach(invoice -> mine.add(invoice.number()));
                            creditNotes.forEach(creditNote -> creditNoteNumbers.add(creditNote.number()));
                            committedInvoices.addAndGet(invoices.size());
                            committedCreditNotes.addAndGet(creditNotes.size());
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
            assertThat(numbers(db.dataSource(), INVOICES)).containsExactly(sorted);
            long[] creditNotesSorted = Concurrently.assertUnique(
                    creditNoteNumbers.stream().mapToLong(Long::longValue).toArray());
            assertThat(creditNotesSorted).hasSize(committedCreditNotes.get());
            Concurrently.assertContiguousFrom(1, creditNotesSorted);
            assertThat(numbers(db.dataSource(), CREDIT_NOTES)).containsExactly(creditNotesSorted);
        } finally {
            running.set(false);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"))
                    .as("rolled back increments were undone").isEqualTo(committedInvoices.get() + 1L);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "credit_note_numbers"))
                    .as("rolled back increments were undone").isEqualTo(committedCreditNotes.get() + 1L);
            db.dropTable(seqgenTable);
        }
    }

    /**
     * The id is known at persist(), and the numbers a flush needs are reserved by one increment at its first
     * insert, so the inserts still go out as JDBC batches, and the increment is the only other statement the
     * flush sends on the session's connection: 1 round trip for the numbers of 200 inserts.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aFlushOf200NumberedInsertsSendsOneIncrementAndKeepsItsJdbcBatches(TestDatabase db) {
        int entities = 200;
        int batchSize = 50;
        String seqgenTable = TestDatabase.uniqueTable();
        StatementCounter inserts = new StatementCounter("insert into " + INVOICES);
        StatementLog log = new StatementLog();
        List<NumberedInvoice> persisted = new ArrayList<>();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(inserts.wrap(log.wrap(db.dataSource())),
                PREFIX, seqgenTable, Map.of(AvailableSettings.STATEMENT_BATCH_SIZE, batchSize),
                NumberedInvoice.class)) {
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < entities; i++) {
                    NumberedInvoice invoice = new NumberedInvoice(0);
                    session.persist(invoice);
                    persisted.add(invoice);
                }
            });
            assertThat(numbers(db.dataSource(), INVOICES)).hasSize(entities);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"))
                    .isEqualTo(entities + 1L);
        } finally {
            db.dropTable(seqgenTable);
        }
        assertThat(persisted).extracting(NumberedInvoice::number).as("consecutive, in insert order")
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, entities).boxed().toList());
        assertThat(inserts.rowsBatched).as("insert rows added to JDBC batches").hasValue(entities);
        assertThat(inserts.batchesExecuted).as("JDBC batches executed").hasValue(entities / batchSize);
        assertThat(inserts.executedSingly).as("inserts executed one by one").hasValue(0);
        assertIncrementsOnTheSessionConnection(log, seqgenTable, INVOICES, 1);
    }

    /**
     * Other entities persisted first, then invoices and credit notes, then other entities again, with
     * {@code hibernate.order_inserts}: the flush's numbers are reserved, one increment per sequence, before its
     * first insert is batched (before, the increment came after the other entities' rows were batched, which
     * made Spanner's auto_batch_dml send two batches), and every JDBC batch of inserts stays whole.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aMixedFlushReservesItsNumbersBeforeItsFirstInsertAndKeepsEveryBatchWhole(TestDatabase db) {
        int batchSize = 50;
        int othersBefore = 60;
        int invoiceCount = 70;
        int creditNoteCount = 30;
        int othersAfter = 60;
        String seqgenTable = TestDatabase.uniqueTable();
        StatementCounter otherInserts = new StatementCounter("insert into " + PREFIX + "async_batch_ticket");
        StatementCounter invoiceInserts = new StatementCounter("insert into " + INVOICES);
        StatementCounter creditNoteInserts = new StatementCounter("insert into " + CREDIT_NOTES);
        StatementLog log = new StatementLog();
        List<NumberedInvoice> invoices = new ArrayList<>();
        List<NumberedCreditNote> creditNotes = new ArrayList<>();
        DataSource observed = otherInserts.wrap(invoiceInserts.wrap(creditNoteInserts.wrap(log.wrap(db.dataSource()))));
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(observed, PREFIX, seqgenTable,
                Map.of(AvailableSettings.STATEMENT_BATCH_SIZE, batchSize, AvailableSettings.ORDER_INSERTS, true),
                AsyncBatchTicket.class, NumberedInvoice.class, NumberedCreditNote.class)) {
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < othersBefore; i++) {
                    session.persist(new AsyncBatchTicket(0));
                }
                for (int i = 0; i < invoiceCount; i++) {
                    NumberedInvoice invoice = new NumberedInvoice(0);
                    session.persist(invoice);
                    invoices.add(invoice);
                    if (i < creditNoteCount) {
                        NumberedCreditNote creditNote = new NumberedCreditNote(0);
                        session.persist(creditNote);
                        creditNotes.add(creditNote);
                    }
                }
                for (int i = 0; i < othersAfter; i++) {
                    session.persist(new AsyncBatchTicket(0));
                }
            });
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"))
                    .isEqualTo(invoiceCount + 1L);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "credit_note_numbers"))
                    .isEqualTo(creditNoteCount + 1L);
        } finally {
            db.dropTable(seqgenTable);
        }
        assertThat(invoices).extracting(NumberedInvoice::number).as("invoice numbers, in persist order")
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, invoiceCount).boxed().toList());
        assertThat(creditNotes).extracting(NumberedCreditNote::number).as("credit note numbers, in persist order")
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, creditNoteCount).boxed()
                        .toList());
        assertWholeBatches("other entities", otherInserts, othersBefore + othersAfter, batchSize);
        assertWholeBatches("invoices", invoiceInserts, invoiceCount, batchSize);
        assertWholeBatches("credit notes", creditNoteInserts, creditNoteCount, batchSize);

        List<List<String>> sessions = log.connectionsThatPrepared("insert into " + INVOICES);
        assertThat(sessions).as("connections that inserted").hasSize(1);
        List<String> statements = sessions.get(0);
        int firstInsert = java.util.stream.IntStream.range(0, statements.size())
                .filter(i -> statements.get(i).startsWith("insert into ")).findFirst().orElseThrow();
        String seqgen = "update " + seqgenTable.toLowerCase(java.util.Locale.ROOT);
        assertThat(statements.subList(0, firstInsert).stream().filter(sql -> sql.contains(seqgen)))
                .as("increments before the flush's first insert, one per sequence: %s", statements).hasSize(2);
        assertThat(statements.subList(firstInsert, statements.size()).stream().filter(sql -> sql.contains(seqgen)))
                .as("statements on seqgen's row after the first insert: %s", statements).isEmpty();
    }

    /** Asserts that the rows went out in as few JDBC batches as the batch size allows, none executed singly. */
    private static void assertWholeBatches(String what, StatementCounter inserts, int rows, int batchSize) {
        assertThat(inserts.rowsBatched).as("%s: insert rows added to JDBC batches", what).hasValue(rows);
        assertThat(inserts.batchesExecuted).as("%s: JDBC batches executed", what)
                .hasValue((rows + batchSize - 1) / batchSize);
        assertThat(inserts.executedSingly).as("%s: inserts executed one by one", what).hasValue(0);
    }

    /** Two SYNC sequences in one flush: one increment each, whatever the number of inserts. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void twoSequencesInOneFlushTakeOneIncrementEach(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        StatementLog log = new StatementLog();
        List<NumberedInvoice> invoices = new ArrayList<>();
        List<NumberedCreditNote> creditNotes = new ArrayList<>();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(log.wrap(db.dataSource()), PREFIX,
                seqgenTable, Map.of(AvailableSettings.STATEMENT_BATCH_SIZE, 50), NumberedInvoice.class,
                NumberedCreditNote.class)) {
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < 30; i++) {
                    NumberedInvoice invoice = new NumberedInvoice(0);
                    session.persist(invoice);
                    invoices.add(invoice);
                    NumberedCreditNote creditNote = new NumberedCreditNote(0);
                    session.persist(creditNote);
                    creditNotes.add(creditNote);
                }
            });
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers")).isEqualTo(31);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "credit_note_numbers"))
                    .isEqualTo(31);
        } finally {
            db.dropTable(seqgenTable);
        }
        List<Long> oneToThirty = java.util.stream.LongStream.rangeClosed(1, 30).boxed().toList();
        assertThat(invoices).extracting(NumberedInvoice::number).containsExactlyElementsOf(oneToThirty);
        assertThat(creditNotes).extracting(NumberedCreditNote::number).containsExactlyElementsOf(oneToThirty);
        assertIncrementsOnTheSessionConnection(log, seqgenTable, INVOICES, 2);
    }

    /**
     * An insert that a PreInsertEventListener vetoes was counted for the flush's reservation but takes no
     * number: the unused value is given back in the transaction before it commits, so the committed numbers and
     * the row stay gapless, in this transaction and the next.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void valuesCountedForAVetoedInsertAreGivenBackBeforeTheCommit(TestDatabase db) {
        VetoedInserts run = vetoTwoOfSixInsertsInTwoTransactions(db, Map.of());
        assertThat(run.numbers()).as("numbers of the inserts that ran")
                .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 8).boxed().toList());
        assertThat(run.rowNextValue()).as("the values counted for the vetoed inserts were given back").isEqualTo(9);
    }

    /**
     * The same with bit-reversed numbers and a skip range: the row counts counters, so what is given back is the
     * counters of the unused keys, with the counters the skip range passed over between them. Keys of the
     * counters 1, 2, 6, 10 and 14 lie in 2^61..2^62. The first transaction reserves six keys, of the counters
     * 3, 4, 5, 7, 8, 9; four inserts run (3, 4, 5, 7) and 8..9 go back. The second reserves 8, 9, 11, 12, 13, 15,
     * uses four, and gives back 13..15, the skipped 14 with them: the row ends at 13, and the numbers' counters
     * leave no gap but the skipped ones.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void bitReversedNumbersCountedForAVetoedInsertAreGivenBackAsCounters(TestDatabase db) {
        KeyRange skip = KeyRange.of(1L << 61, 1L << 62);
        VetoedInserts run = vetoTwoOfSixInsertsInTwoTransactions(db, Map.of(
                SeqgenHibernate.SEQUENCES_PREFIX + "invoice_numbers.key-order", "bit-reversed",
                SeqgenHibernate.SEQUENCES_PREFIX + "invoice_numbers.skip-range", skip.toString()));
        assertThat(run.numbers()).as("no number in the skip range").noneMatch(skip::contains);
        assertThat(run.numbers()).extracting(KeyOrder.BIT_REVERSED::counter).as("the numbers' counters")
                .containsExactly(3L, 4L, 5L, 7L, 8L, 9L, 11L, 12L);
        assertThat(run.rowNextValue()).as("the counters counted for the vetoed inserts were given back")
                .isEqualTo(13);
    }

    /** The numbers of the inserts that ran, in insert order, and the row's next value after both transactions. */
    private record VetoedInserts(List<Long> numbers, long rowNextValue) {
    }

    /**
     * Runs two transactions of six numbered invoices each, of which a PreInsertEventListener vetoes the second and
     * the fifth.
     */
    private static VetoedInserts vetoTwoOfSixInsertsInTwoTransactions(TestDatabase db, Map<String, Object> settings) {
        String seqgenTable = TestDatabase.uniqueTable();
        int vetoed = -1;
        List<NumberedInvoice> kept = new ArrayList<>();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                settings, NumberedInvoice.class)) {
            sessionFactory.unwrap(org.hibernate.engine.spi.SessionFactoryImplementor.class).getServiceRegistry()
                    .requireService(org.hibernate.event.service.spi.EventListenerRegistry.class)
                    .appendListeners(org.hibernate.event.spi.EventType.PRE_INSERT,
                            event -> event.getEntity() instanceof NumberedInvoice invoice
                                    && invoice.transactionTag() == vetoed);
            for (int t = 0; t < 2; t++) {
                HibernateTesting.inTransaction(sessionFactory, session -> {
                    for (int i = 0; i < 6; i++) {
                        NumberedInvoice invoice = new NumberedInvoice(i % 3 == 1 ? vetoed : 0);
                        session.persist(invoice);
                        if (i % 3 != 1) {
                            kept.add(invoice);
                        }
                    }
                });
            }
            return new VetoedInserts(kept.stream().map(NumberedInvoice::number).toList(),
                    HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"));
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * An insert that fails after the flush reserved its numbers (the third of five, refused by a pre-insert
     * listener as a constraint violation would refuse it) takes the reservation down with the transaction's
     * rollback: the row is back at 1, no number was committed, and the next transaction numbers from 1.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void anInsertThatFailsAfterTheReservationRollsItsNumbersBackWithTheTransaction(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        int refused = 7;
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(), NumberedInvoice.class)) {
            sessionFactory.unwrap(org.hibernate.engine.spi.SessionFactoryImplementor.class).getServiceRegistry()
                    .requireService(org.hibernate.event.service.spi.EventListenerRegistry.class)
                    .appendListeners(org.hibernate.event.spi.EventType.PRE_INSERT, event -> {
                        if (event.getEntity() instanceof NumberedInvoice invoice
                                && invoice.transactionTag() == refused) {
                            throw new IllegalStateException("insert refused");
                        }
                        return false;
                    });
            List<NumberedInvoice> failed = new ArrayList<>();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> HibernateTesting.inTransaction(sessionFactory,
                    session -> {
                        for (int i = 0; i < 5; i++) {
                            NumberedInvoice invoice = new NumberedInvoice(i == 2 ? refused : 0);
                            session.persist(invoice);
                            failed.add(invoice);
                        }
                        session.flush();
                    })).hasStackTraceContaining("insert refused");
            assertThat(failed.get(0).number()).as("the flush had reserved and handed out numbers").isEqualTo(1L);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "invoice_numbers"))
                    .as("the reservation rolled back with the transaction").isEqualTo(1);
            assertThat(numbers(db.dataSource(), INVOICES)).as("nothing committed").isEmpty();

            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < 3; i++) {
                    session.persist(new NumberedInvoice(0));
                }
            });
            assertThat(numbers(db.dataSource(), INVOICES)).containsExactly(1, 2, 3);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void everyStrategyNumbersANonIdAttributeOfEveryType(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        List<MultiNumbered> all = new ArrayList<>();
        // Small blocks: the 100 numbers of BATCH and ASYNC_BATCH take many, some of them within one flush.
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(SeqgenHibernate.SEQUENCES_PREFIX + "multi_batch.block-size", "7",
                        SeqgenHibernate.SEQUENCES_PREFIX + "multi_async_batch.block-size", "10"),
                MultiNumbered.class)) {
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
                        .contains("@SeqgenNumber generates long/Long and int/Integer attributes, and String"
                                + " attributes with a format, not a String without one"));
        TestDatabase.H2.dropTable(seqgenTable);
    }

    private static void assertUniquePositive(String what, List<Long> values) {
        Set<Long> unique = new HashSet<>(values);
        assertThat(unique).as(what + " unique").hasSize(values.size());
        assertThat(values).as(what + " positive").allSatisfy(value -> assertThat(value).isPositive());
    }

    private static <E> void assertConsecutive(List<E> persisted, java.util.function.Function<E, Long> number) {
        if (persisted.isEmpty()) {
            return;
        }
        long first = number.apply(persisted.get(0));
        for (int i = 0; i < persisted.size(); i++) {
            assertThat(number.apply(persisted.get(i))).as("numbers of one transaction, in insert order")
                    .isEqualTo(first + i);
        }
    }

    /**
     * Asserts that the one connection that inserted into {@code table} prepared, besides its inserts, only
     * statements on seqgen's table, {@code increments} of them updates: the increments of the flush.
     */
    private static void assertIncrementsOnTheSessionConnection(StatementLog log, String seqgenTable, String table,
            int increments) {
        List<List<String>> sessions = log.connectionsThatPrepared("insert into " + table);
        assertThat(sessions).as("connections that inserted").hasSize(1);
        String seqgen = seqgenTable.toLowerCase(java.util.Locale.ROOT);
        List<String> others = sessions.get(0).stream().filter(sql -> !sql.startsWith("insert into ")).toList();
        assertThat(others).as("statements other than the inserts, on the session's connection")
                .allSatisfy(sql -> assertThat(sql).contains(seqgen));
        assertThat(others.stream().filter(sql -> sql.contains("update " + seqgen))).as("increments of seqgen's row")
                .hasSize(increments);
    }

    private static long[] numbers(DataSource dataSource, String table) {
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT number FROM " + table + " ORDER BY number")) {
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
