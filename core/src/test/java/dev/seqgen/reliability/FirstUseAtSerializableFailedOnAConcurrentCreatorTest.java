package dev.seqgen.reliability;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Regression, found by {@link SerializableIsolationTest}: at SERIALIZABLE isolation (PostgreSQL so configured,
 * CockroachDB, YugabyteDB), generators that used a new sequence for the first time at the same moment (pods of
 * one deployment starting together) raced to insert its row, and the losers' {@code INSERT ... ON CONFLICT DO
 * NOTHING} failed with a serialization failure (SQLSTATE 40001), which {@code registry.sequence(name)} turned
 * into a {@code SequenceUnavailableException}. The insert-if-missing is idempotent; the JDBC store now retries
 * it on transient errors.
 */
class FirstUseAtSerializableFailedOnAConcurrentCreatorTest {

    @Test
    void sixteenGeneratorsUsingANewSequenceAtOnceAllGetIt() throws Exception {
        TestDatabase database = TestDatabase.POSTGRESQL;
        DatabaseServer server = DatabaseServer.of(database);
        String table = TestDatabase.uniqueTable();
        try (HikariDataSource pool = server.pool(20,
                config -> config.setTransactionIsolation("TRANSACTION_SERIALIZABLE"))) {
            JdbcSequenceStore store = JdbcSequenceStore.builder(pool).table(table).build();
            store.createTableIfMissing();
            SequenceSettings async = SequenceSettings.builder().strategy(Strategy.ASYNC).build();
            for (int round = 0; round < 10; round++) {
                String name = "new-" + round;
                long[] firstValues = Concurrently.run(16, thread -> {
                    try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(async).build()) {
                        return new long[] {registry.sequence(name).next()};
                    }
                });
                Concurrently.assertContiguousFrom(1, Concurrently.assertUnique(firstValues));
                assertThat(store.nextValue(name)).hasValue(17);
            }
        } finally {
            database.dropTable(table);
        }
    }
}
