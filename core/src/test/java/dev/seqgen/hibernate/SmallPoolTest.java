package dev.seqgen.hibernate;

import com.zaxxer.hikari.HikariDataSource;
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
 * Eight threads insert through a pool of two connections. Each holds its session's connection while its id
 * is generated; seqgen's own statements use the connection it borrowed at startup, so no thread ever waits
 * for the pool while holding a connection of it, and the run completes. The timeout only catches a
 * deadlock; nothing here measures speed.
 */
class SmallPoolTest {

    private static final String PREFIX = HibernateTesting.prefix("hsp_");

    private static final int POOL_SIZE = 2;
    private static final int THREADS = 8;
    private static final int TRANSACTIONS_PER_THREAD = 25;
    private static final int ENTITIES_PER_TRANSACTION = 4;

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(db -> Arrays.stream(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databasesAndStrategies")
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void eightThreadsInsertThroughAPoolOfTwoWithoutDeadlock(TestDatabase db, Strategy strategy) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        IntFunction<Ticket> create = switch (strategy) {
            case SYNC -> SyncTicket::new;
            case ASYNC -> AsyncTicket::new;
            case BATCH -> BatchTicket::new;
            case ASYNC_BATCH -> AsyncBatchTicket::new;
        };
        try (HikariDataSource pool = db.newPool(POOL_SIZE);
                // Blocks of 100: BATCH and ASYNC_BATCH reserve several while the threads hold the pool's connections.
                SessionFactory sessionFactory = HibernateTesting.sessionFactory(pool, PREFIX, seqgenTable,
                        Map.of(SeqgenHibernate.DEFAULTS_PREFIX + "block-size", "100"), create.apply(0).getClass())) {
            long[] ids = Concurrently.run(THREADS, thread -> {
                long[] mine = new long[TRANSACTIONS_PER_THREAD * ENTITIES_PER_TRANSACTION];
                int taken = 0;
                for (int t = 0; t < TRANSACTIONS_PER_THREAD; t++) {
                    Ticket[] tickets = new Ticket[ENTITIES_PER_TRANSACTION];
                    HibernateTesting.inTransaction(sessionFactory, session -> {
                        for (int e = 0; e < tickets.length; e++) {
                            tickets[e] = create.apply(thread);
                            session.persist(tickets[e]);
                        }
                    });
                    for (Ticket ticket : tickets) {
                        mine[taken++] = ticket.id();
                    }
                }
                return mine;
            });
            assertThat(Concurrently.assertUnique(ids)).hasSize(THREADS * TRANSACTIONS_PER_THREAD
                    * ENTITIES_PER_TRANSACTION);
        } finally {
            db.dropTable(seqgenTable);
        }
    }
}
