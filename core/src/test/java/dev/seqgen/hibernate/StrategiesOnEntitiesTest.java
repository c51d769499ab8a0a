package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each strategy behind {@code @SeqgenGenerator} on each database: eight threads persist entities, each in
 * transactions of its own, and the ids are what the strategy promises.
 */
class StrategiesOnEntitiesTest {

    private static final String PREFIX = HibernateTesting.prefix("hst_");

    private static final int THREADS = 8;
    private static final int TRANSACTIONS_PER_THREAD = 25;
    private static final int ENTITIES_PER_TRANSACTION = 10;
    private static final int TOTAL = THREADS * TRANSACTIONS_PER_THREAD * ENTITIES_PER_TRANSACTION;

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(db -> Arrays.stream(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databasesAndStrategies")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void eightThreadsPersistWithoutDuplicatesAndGetTheIdsTheStrategyPromises(TestDatabase db, Strategy strategy)
            throws Exception {
        Entity entity = Entity.of(strategy);
        String seqgenTable = TestDatabase.uniqueTable();
        long[] persistedInThreadOrder;
        long[] stored;
        // Blocks of 100: BATCH and ASYNC_BATCH reserve several while the threads insert.
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(SeqgenHibernate.DEFAULTS_PREFIX + "block-size", "100"), entity.type)) {
            persistedInThreadOrder = Concurrently.run(THREADS, thread -> {
                long[] ids = new long[TRANSACTIONS_PER_THREAD * ENTITIES_PER_TRANSACTION];
                int taken = 0;
                for (int t = 0; t < TRANSACTIONS_PER_THREAD; t++) {
                    Ticket[] tickets = new Ticket[ENTITIES_PER_TRANSACTION];
                    HibernateTesting.inTransaction(sessionFactory, session -> {
                        for (int e = 0; e < tickets.length; e++) {
                            tickets[e] = entity.create.apply(thread);
                            session.persist(tickets[e]);
                        }
                    });
                    for (Ticket ticket : tickets) {
                        ids[taken++] = ticket.id();
                    }
                }
                assertThat(ids).as("ids of one thread, in the order it persisted them").isSorted()
                        .doesNotHaveDuplicates();
                return ids;
            });
            stored = HibernateTesting.ids(db.dataSource(), PREFIX + entity.table);
        }
        try {
            long[] sorted = Concurrently.assertUnique(persistedInThreadOrder);
            assertThat(stored).as("the ids in the table").containsExactly(sorted);
            assertThat(sorted).hasSize(TOTAL);
            assertThat(sorted[0]).isGreaterThanOrEqualTo(1);
            if (strategy == Strategy.SYNC || strategy == Strategy.ASYNC) {
                // Nothing rolled back: SYNC is gapless, and ASYNC leaves gaps only for rolled back values.
                Concurrently.assertContiguousFrom(1, sorted);
            }
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, entity.table))
                    .as("after the session factory closed, unused values were given back")
                    .isEqualTo(sorted[sorted.length - 1] + 1);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /** The entity class of each strategy, with the sequence (and table) name derived from it. */
    private enum Entity {
        SYNC(SyncTicket.class, "sync_ticket", SyncTicket::new),
        ASYNC(AsyncTicket.class, "async_ticket", AsyncTicket::new),
        BATCH(BatchTicket.class, "batch_ticket", BatchTicket::new),
        ASYNC_BATCH(AsyncBatchTicket.class, "async_batch_ticket", AsyncBatchTicket::new);

        final Class<?> type;
        final String table;
        final IntFunction<Ticket> create;

        Entity(Class<?> type, String table, IntFunction<Ticket> create) {
            this.type = type;
            this.table = table;
            this.create = create;
        }

        static Entity of(Strategy strategy) {
            return valueOf(strategy.name());
        }
    }
}
