package dev.seqgen.reliability;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * PostgreSQL at SERIALIZABLE isolation, which is how CockroachDB, YugabyteDB and Aurora DSQL behave: an
 * {@code UPDATE} of the counter row whose snapshot predates a concurrent committed update fails with a
 * serialization failure (SQLSTATE 40001) instead of waiting and re-reading as READ COMMITTED does. Four
 * registries (as four JVMs) of four threads each contend for one row. The reservation is retried inside seqgen
 * (visible in {@code stats().retries()} and the {@code seqgen.reservation.retries} meter); a SYNC increment is
 * not, because it belongs to the caller's transaction, which the caller retries as a whole.
 */
class SerializableIsolationTest {

    private static final int REGISTRIES = 4;
    private static final int THREADS_PER_REGISTRY = 4;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @ParameterizedTest(name = "postgresql SERIALIZABLE {0}")
    @EnumSource(Strategy.class)
    void serializationFailuresAreRetriedAndNoValueIsIssuedTwice(Strategy strategy) throws Exception {
        TestDatabase database = TestDatabase.POSTGRESQL;
        DatabaseServer server = DatabaseServer.of(database);
        HikariDataSource pool = server.pool(REGISTRIES * THREADS_PER_REGISTRY + 4,
                config -> config.setTransactionIsolation("TRANSACTION_SERIALIZABLE"));
        resources.add(pool);
        String table = TestDatabase.uniqueTable();
        String committed = TestDatabase.uniqueTable();
        resources.add(() -> database.dropTable(table));
        resources.add(() -> database.dropTable(committed));
        database.execute("CREATE TABLE " + committed + " (v BIGINT NOT NULL PRIMARY KEY)");
        JdbcSequenceStore store = JdbcSequenceStore.builder(pool).table(table).build();
        store.createTableIfMissing();
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(5).lowWatermark(2)
                .acquireTimeout(Duration.ofSeconds(20)).build();
        List<Sequence> sequences = new ArrayList<>();
        for (int r = 0; r < REGISTRIES; r++) {
            SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings)
                    .metrics(new MicrometerMetricsTrackerFactory(meters)).build();
            resources.add(registry);
            sequences.add(registry.sequence("orders"));
        }
        AtomicLong callerRetries = new AtomicLong();
        int valuesPerThread = strategy == Strategy.SYNC || strategy == Strategy.ASYNC ? 60 : 600;

        long[] values = Concurrently.run(REGISTRIES * THREADS_PER_REGISTRY, thread -> {
            Sequence sequence = sequences.get(thread % REGISTRIES);
            long[] mine = new long[valuesPerThread];
            for (int i = 0; i < valuesPerThread; i++) {
                if (strategy == Strategy.SYNC) {
                    mine[i] = commitOneRetryingSerializationFailures(pool, sequence, committed, callerRetries);
                } else {
                    mine[i] = sequence.next();
                }
            }
            return mine;
        });

        long[] sorted = Concurrently.assertUnique(values);
        long retries = sequences.stream().mapToLong(s -> s.stats().retries()).sum();
        double retriesMetered = meters.find(MicrometerMetricsTrackerFactory.RESERVATION_RETRIES).counters().stream()
                .mapToDouble(c -> c.count()).sum();
        System.out.printf("postgresql SERIALIZABLE %s: %,d values, %,d reservations, %,d seqgen retries,"
                        + " %,d caller transaction retries%n", strategy, sorted.length,
                sequences.stream().mapToLong(s -> s.stats().reservations()).sum(), retries, callerRetries.get());
        assertThat(retriesMetered).isEqualTo(retries);
        if (strategy == Strategy.SYNC) {
            Concurrently.assertContiguousFrom(1, sorted);
            assertThat(retries).as("SYNC never retries inside the caller's transaction").isZero();
            assertThat(callerRetries.get()).as("caller transactions rolled back on 40001 and retried").isPositive();
        } else {
            assertThat(retries).as("reservations retried after 40001").isPositive();
            assertThat(sorted[sorted.length - 1]).isLessThan(store.nextValue("orders").orElseThrow());
        }
    }

    /** The caller's side of SYNC at SERIALIZABLE: a serialization failure rolls the transaction back; try again. */
    private static long commitOneRetryingSerializationFailures(HikariDataSource pool, Sequence sequence,
            String committed, AtomicLong callerRetries) throws SQLException {
        for (;;) {
            try (Connection connection = pool.getConnection()) {
                connection.setAutoCommit(false);
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO " + committed + " (v) VALUES (?)")) {
                    long value = sequence.nextInTransaction(connection);
                    insert.setLong(1, value);
                    insert.executeUpdate();
                    connection.commit();
                    return value;
                } catch (SequenceUnavailableException e) {
                    connection.rollback();
                    if (!(e.getCause() != null && e.getMessage().contains("SQLSTATE 40001"))) {
                        throw e;
                    }
                    callerRetries.incrementAndGet();
                } finally {
                    connection.setAutoCommit(true);
                }
            }
        }
    }
}
