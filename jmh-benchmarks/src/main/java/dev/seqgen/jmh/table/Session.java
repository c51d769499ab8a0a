package dev.seqgen.jmh.table;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jmh.Pause;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * One run's connection to the database: the pool, the data source whose commits carry the injected latency,
 * seqgen's JDBC store over it, and the round trips measured before the first mode runs.
 */
final class Session implements AutoCloseable {

    /** Reservations timed, one after another, to measure a round trip; the median is kept. */
    private static final int PROBES = 21;

    /** So long that a wait in a crowded run is measured, never cut short as an error. */
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofMinutes(2);

    private final TableOptions options;
    private final HikariDataSource pool;
    private final DataSource dataSource;
    private final JdbcSequenceStore store;
    private final long appNanos;
    private final long storeLatencyNanos;
    private final long rowRoundTripNanos;
    private final long sequenceCallNanos;

    Session(TableOptions options) {
        this.options = options;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(options.url());
        config.setUsername(options.user());
        config.setPassword(options.password());
        // Every caller thread may hold a connection (SYNC), plus refills and Hibernate's sequence calls.
        config.setMaximumPoolSize(Collections.max(options.threads()) + 4);
        config.setPoolName("strategy-table");
        this.pool = new HikariDataSource(config);
        this.appNanos = options.appLatency().toNanos();
        this.storeLatencyNanos = options.storeLatency().toNanos();
        this.dataSource = storeLatencyNanos > 0 ? new CommitLatencyDataSource(pool, storeLatencyNanos) : pool;
        this.store = JdbcSequenceStore.builder(dataSource).build();
        this.rowRoundTripNanos = probeRowRoundTrip();
        this.sequenceCallNanos = options.modes().stream().anyMatch(Mode::usesNativeSequence)
                ? probeSequenceCall() : 0;
    }

    private long probeRowRoundTrip() {
        String probe = "strategy_table_probe";
        store.createSequence(probe, 1);
        long[] nanos = new long[PROBES];
        for (int i = 0; i < PROBES; i++) {
            long start = System.nanoTime();
            store.reserve(probe, 1, SequenceSettings.LARGEST_MAX_VALUE);
            nanos[i] = System.nanoTime() - start;
        }
        return median(nanos);
    }

    private long probeSequenceCall() {
        NativeSequence sequence = nativeSequence(1);
        long[] nanos = new long[PROBES];
        for (int i = 0; i < PROBES; i++) {
            long start = System.nanoTime();
            sequence.next();
            nanos[i] = System.nanoTime() - start;
        }
        return median(nanos);
    }

    private static long median(long[] values) {
        Arrays.sort(values);
        return values[values.length / 2];
    }

    /** A registry over the store whose sequences all use {@code strategy} and the run's block settings. */
    SequenceRegistry registry(Strategy strategy) {
        return SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder()
                        .strategy(strategy)
                        .blockSize(options.blockSize())
                        .lowWatermark(options.effectiveLowWatermark())
                        .adaptiveMaxBlockSize(Math.max(options.blockSize(), 100_000))
                        .acquireTimeout(ACQUIRE_TIMEOUT)
                        .build())
                .build();
    }

    /**
     * Runs one simulated application transaction that takes its value inside it, as SYNC needs: the value,
     * then the application's work, then the commit (which carries the injected latency), all while the
     * sequence row stays locked.
     */
    long inTransaction(Function<Connection, Long> takeValue) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                long value = takeValue.apply(connection);
                Pause.nanos(appNanos);
                connection.commit();
                return value;
            } catch (RuntimeException | SQLException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /** The simulated application transaction of the modes that take their value before it. */
    void applicationTransaction() {
        Pause.nanos(appNanos);
    }

    /**
     * The database's own sequence that steps by {@code increment}, created if missing; a separate sequence
     * per increment, since an existing sequence's step is not changed.
     */
    NativeSequence nativeSequence(int increment) {
        String name = "strategy_table_seq_" + increment;
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(options.database().createSequenceSql(name, increment));
        } catch (SQLException e) {
            throw new IllegalStateException("could not create sequence " + name + ": " + e.getMessage(), e);
        }
        return new NativeSequence(options.database().nextValueSql(name));
    }

    /**
     * A native sequence call: one statement in auto-commit, which takes no lock and commits nothing, so it
     * pays the injected latency once, as a round trip, before the statement.
     */
    final class NativeSequence {

        private final String sql;

        private NativeSequence(String sql) {
            this.sql = sql;
        }

        long next() {
            Pause.nanos(storeLatencyNanos);
            try (Connection connection = pool.getConnection();
                    PreparedStatement select = connection.prepareStatement(sql);
                    ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException(sql + " failed: " + e.getMessage(), e);
            }
        }
    }

    long appNanos() {
        return appNanos;
    }

    long storeLatencyNanos() {
        return storeLatencyNanos;
    }

    /** The median time of one reservation on the sequence table: connection, UPDATE, commit. */
    long rowRoundTripNanos() {
        return rowRoundTripNanos;
    }

    /** The median time of one native sequence call, or 0 when no mode uses one. */
    long sequenceCallNanos() {
        return sequenceCallNanos;
    }

    /** Whether the bounds rest on the injected latency (a hard floor) rather than on measured round trips. */
    boolean boundsOnInjectedLatency() {
        return storeLatencyNanos > 0;
    }

    /**
     * The {@code store} of the bounds: the injected latency, which every commit on the row waits with the row
     * locked, so no mode can beat a bound made of it; without one, the measured reservation, which is only
     * an estimate of how long the database keeps the row locked (the bound may then be beaten a little).
     */
    long storeForBounds() {
        return boundsOnInjectedLatency() ? storeLatencyNanos : rowRoundTripNanos;
    }

    /** The {@code call} of the bounds, chosen as {@link #storeForBounds()} is. */
    long callForBounds() {
        return boundsOnInjectedLatency() ? storeLatencyNanos : sequenceCallNanos;
    }

    int blockSize() {
        return options.blockSize();
    }

    String storeName() {
        return store.name();
    }

    @Override
    public void close() {
        pool.close();
    }
}
