package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One application, two kinds of sequence in one registry: invoice ids counted in a database sequence
 * ({@code kind=native-sequence}) beside gapless SYNC invoice numbers counted in the table. Then the same database
 * restarted with the ids moved back to the table: ids and numbers continue above what exists.
 */
class MixedKindsTest {

    private static final String PREFIX = HibernateTesting.prefix("mk_");
    private static final int THREADS = 8;
    private static final int TRANSACTIONS_PER_THREAD = 12;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void idsOnADatabaseSequenceAndGaplessNumbersOnTheTableShareOneApplication(TestDatabase db) throws Exception {
        DataSource dataSource = db.dataSource();
        String seqgenTable = TestDatabase.uniqueTable();
        String sequencePrefix = TestDatabase.uniqueTable() + "_";
        String databaseSequence = sequencePrefix + "numbered_invoice_ids";
        try {
            Map<String, Object> mixed = new HashMap<>();
            mixed.put(AvailableSettings.HBM2DDL_AUTO, "create");
            mixed.put(SeqgenHibernate.SEQUENCES_PREFIX + "numbered_invoice_ids.kind", "native-sequence");
            mixed.put(SeqgenHibernate.SEQUENCE_PREFIX, sequencePrefix);
            Run first;
            try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    mixed, NumberedInvoice.class)) {
                first = persistFromEightThreads(sessionFactory);
            }
            assertThat(first.ids).doesNotHaveDuplicates();
            assertThat(Arrays.stream(first.ids).min().orElseThrow()).isPositive();
            Concurrently.assertContiguousFrom(1, sorted(first.numbers));
            assertThat(HibernateTesting.ids(dataSource, PREFIX + "numbered_invoice")).hasSize(first.ids.length);
            assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "invoice_numbers"))
                    .as("the numbers were counted in the table, rolled back ones undone")
                    .isEqualTo(first.numbers.length + 1L);
            assertThatThrownBy(() -> HibernateTesting.nextValue(dataSource, seqgenTable, "numbered_invoice_ids"))
                    .as("the ids were not counted in the table").hasMessageContaining("no row");
            // The ids came from the database sequence: it is past every id.
            assertThat(databaseSequenceValue(db, sequencePrefix)).isGreaterThan(max(first.ids));

            // Restarted with the ids back on the table (the kind setting removed), numbers unchanged.
            Run second;
            try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "none"), NumberedInvoice.class)) {
                second = persistFromEightThreads(sessionFactory);
            }
            assertThat(second.ids).doesNotHaveDuplicates();
            assertThat(Arrays.stream(second.ids).min().orElseThrow()).as("above the ids the database sequence gave")
                    .isGreaterThan(max(first.ids));
            long[] allNumbers = LongStream.concat(Arrays.stream(first.numbers), Arrays.stream(second.numbers))
                    .toArray();
            Concurrently.assertContiguousFrom(1, sorted(allNumbers));
            assertThat(HibernateTesting.ids(dataSource, PREFIX + "numbered_invoice"))
                    .hasSize(first.ids.length + second.ids.length);
        } finally {
            db.dropTable(PREFIX + "numbered_invoice");
            db.dropTable(seqgenTable);
            db.execute("DROP SEQUENCE IF EXISTS " + databaseSequence);
        }
    }

    /**
     * A {@code @SeqgenNumber} whose kind changes between runs adopts the numbers its column holds, as ids do: counted
     * in a database sequence, then in the table (a new row, above the column's highest number), then in the
     * database sequence again (moved forward past the numbers the table gave).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void numbersAdoptTheirColumnWhenTheirKindChangesBetweenRuns(TestDatabase db) {
        DataSource dataSource = db.dataSource();
        String seqgenTable = TestDatabase.uniqueTable();
        String sequencePrefix = TestDatabase.uniqueTable() + "_";
        Map<String, Object> onDatabaseSequence = new HashMap<>();
        onDatabaseSequence.put(SeqgenHibernate.SEQUENCES_PREFIX + "multi_async_batch.kind", "native-sequence");
        onDatabaseSequence.put(SeqgenHibernate.SEQUENCE_PREFIX, sequencePrefix);
        try {
            Map<String, Object> create = new HashMap<>(onDatabaseSequence);
            create.put(AvailableSettings.HBM2DDL_AUTO, "create");
            long[] first = persistNumbered(HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable, create,
                    MultiNumbered.class));
            long[] second = persistNumbered(HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "none"), MultiNumbered.class));
            Map<String, Object> again = new HashMap<>(onDatabaseSequence);
            again.put(AvailableSettings.HBM2DDL_AUTO, "none");
            long[] third = persistNumbered(HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable, again,
                    MultiNumbered.class));

            assertThat(Arrays.stream(second).min().orElseThrow()).as("on the table, above the database sequence's")
                    .isGreaterThan(max(first));
            assertThat(Arrays.stream(third).min().orElseThrow()).as("on the database sequence again, above the table's")
                    .isGreaterThan(max(second));
            Concurrently.assertUnique(LongStream.concat(LongStream.concat(Arrays.stream(first), Arrays.stream(second)),
                    Arrays.stream(third)).toArray());
        } finally {
            db.dropTable(PREFIX + "multi_numbered");
            db.dropTable(seqgenTable);
            db.execute("DROP SEQUENCE IF EXISTS " + sequencePrefix + "multi_async_batch");
        }
    }

    /** Persists 15 numbered entities, one per transaction, closes the session factory, returns their numbers. */
    private static long[] persistNumbered(SessionFactory sessionFactory) {
        try (sessionFactory) {
            long[] numbers = new long[15];
            for (int i = 0; i < numbers.length; i++) {
                MultiNumbered numbered = new MultiNumbered();
                HibernateTesting.inTransaction(sessionFactory, session -> session.persist(numbered));
                numbers[i] = numbered.asyncBatchNumber();
            }
            return numbers;
        }
    }

    /** The committed ids and numbers of 8 threads' transactions, a third of them rolled back after their flush. */
    private static Run persistFromEightThreads(SessionFactory sessionFactory) throws Exception {
        AtomicInteger committed = new AtomicInteger();
        List<long[]> ids = java.util.Collections.synchronizedList(new ArrayList<>());
        long[] numbers = Concurrently.run(THREADS, thread -> {
            List<Long> mine = new ArrayList<>();
            List<Long> myIds = new ArrayList<>();
            for (int t = 0; t < TRANSACTIONS_PER_THREAD; t++) {
                int invoices = 1 + t % 3;
                boolean rollBack = (thread + t) % 3 == 0;
                try (Session session = sessionFactory.openSession()) {
                    Transaction transaction = session.beginTransaction();
                    List<NumberedInvoice> persisted = new ArrayList<>();
                    for (int i = 0; i < invoices; i++) {
                        NumberedInvoice invoice = new NumberedInvoice(thread * 1000 + t);
                        session.persist(invoice);
                        persisted.add(invoice);
                    }
                    if (rollBack) {
                        // After the flush: the numbers were taken and the inserts ran, then both roll back.
                        session.flush();
                        transaction.rollback();
                    } else {
                        transaction.commit();
                        persisted.forEach(invoice -> {
                            mine.add(invoice.number());
                            myIds.add(invoice.id());
                        });
                        committed.addAndGet(invoices);
                    }
                }
            }
            ids.add(myIds.stream().mapToLong(Long::longValue).toArray());
            return mine.stream().mapToLong(Long::longValue).toArray();
        });
        assertThat(numbers).hasSize(committed.get());
        return new Run(ids.stream().flatMapToLong(Arrays::stream).toArray(), numbers);
    }

    /** The next value of the database sequence, read by the native-sequence store as it reads it itself. */
    private static long databaseSequenceValue(TestDatabase db, String prefix) {
        try (NativeSequenceStore store = NativeSequenceStore.builder(db.dataSource()).prefix(prefix).build()) {
            return store.nextValue("numbered_invoice_ids").orElseThrow(() -> new AssertionError(
                    "database sequence " + prefix + "numbered_invoice_ids does not exist"));
        }
    }

    private static long max(long[] values) {
        return Arrays.stream(values).max().orElseThrow();
    }

    private static long[] sorted(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted;
    }

    private record Run(long[] ids, long[] numbers) {
    }

    @org.junit.jupiter.api.Test
    void aSyncNumberConfiguredOnADatabaseSequenceFailsNamingTheSequenceAndTheWayOut() {
        String seqgenTable = TestDatabase.uniqueTable();
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> HibernateTesting.sessionFactory(
                TestDatabase.H2.dataSource(), PREFIX, seqgenTable,
                Map.of(SeqgenHibernate.SEQUENCES_PREFIX + "invoice_numbers.kind", "native-sequence"),
                NumberedInvoice.class).close());
        assertThat(failure).as("what a plain Hibernate user catches, with no wrapper above it")
                .isInstanceOf(SeqgenMappingException.class)
                .hasMessageContaining("property 'number'")
                .hasMessageContaining("sequence 'invoice_numbers'")
                .hasMessageContaining("seqgen.sequences.invoice_numbers.kind=table");
        TestDatabase.H2.dropTable(seqgenTable);
    }
}
