package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Ids are known before the insert, so Hibernate sends the inserts as JDBC batches, whatever the strategy. */
class JdbcBatchingTest {

    private static final String PREFIX = HibernateTesting.prefix("hjb_");

    private static final int ENTITIES = 200;
    private static final int BATCH_SIZE = 50;

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(db -> Arrays.stream(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("databasesAndStrategies")
    void insertsGoOutAsJdbcBatchesOfTheConfiguredSize(TestDatabase db, Strategy strategy) {
        String seqgenTable = TestDatabase.uniqueTable();
        String table = PREFIX + switch (strategy) {
            case SYNC -> "sync_ticket";
            case ASYNC -> "async_ticket";
            case BATCH -> "batch_ticket";
            case ASYNC_BATCH -> "async_batch_ticket";
        };
        Class<?> entity = switch (strategy) {
            case SYNC -> SyncTicket.class;
            case ASYNC -> AsyncTicket.class;
            case BATCH -> BatchTicket.class;
            case ASYNC_BATCH -> AsyncBatchTicket.class;
        };
        StatementCounter inserts = new StatementCounter("insert into " + table);
        Map<String, Object> settings = Map.of(AvailableSettings.STATEMENT_BATCH_SIZE, BATCH_SIZE);
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(inserts.wrap(db.dataSource()), PREFIX,
                seqgenTable, settings, entity)) {
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (int i = 0; i < ENTITIES; i++) {
                    session.persist(switch (strategy) {
                        case SYNC -> new SyncTicket(0);
                        case ASYNC -> new AsyncTicket(0);
                        case BATCH -> new BatchTicket(0);
                        case ASYNC_BATCH -> new AsyncBatchTicket(0);
                    });
                }
            });
            assertThat(HibernateTesting.ids(db.dataSource(), table)).hasSize(ENTITIES);
        } finally {
            db.dropTable(seqgenTable);
        }
        assertThat(inserts.rowsBatched).as("insert rows added to JDBC batches").hasValue(ENTITIES);
        assertThat(inserts.batchesExecuted).as("JDBC batches executed").hasValue(ENTITIES / BATCH_SIZE);
        assertThat(inserts.executedSingly).as("inserts executed one by one").hasValue(0);
    }
}
