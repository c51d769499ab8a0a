package dev.seqgen.jmh.table;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.jmh.Pause;
import dev.seqgen.spi.SequenceStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import javax.sql.DataSource;

/**
 * H2, PostgreSQL or MariaDB through a HikariCP pool. The injected store latency is added to every commit, locks
 * held (see {@link CommitLatencyDataSource}); a native sequence call takes no lock and commits nothing, so it
 * pays the latency once, as a round trip, before its statement.
 */
final class JdbcBackend implements Backend {

    private final Database database;
    private final HikariDataSource pool;
    private final DataSource dataSource;
    private final JdbcSequenceStore store;
    private final long storeLatencyNanos;
    private NativeSequenceStore nativeStore;

    JdbcBackend(TableOptions options) {
        this.database = options.database();
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(options.url());
        config.setUsername(options.user());
        config.setPassword(options.password());
        // Every caller thread may hold a connection (SYNC), plus refills and Hibernate's sequence calls.
        config.setMaximumPoolSize(Collections.max(options.threads()) + 4);
        config.setPoolName("strategy-table");
        if (options.isolation() != null) {
            config.setTransactionIsolation(options.isolation());
        }
        this.pool = new HikariDataSource(config);
        this.storeLatencyNanos = options.storeLatency().toNanos();
        this.dataSource = storeLatencyNanos > 0 ? new CommitLatencyDataSource(pool, storeLatencyNanos) : pool;
        this.store = JdbcSequenceStore.builder(dataSource).build();
    }

    @Override
    public SequenceStore store() {
        return store;
    }

    @Override
    public synchronized SequenceStore nativeStore() {
        if (nativeStore == null) {
            nativeStore = NativeSequenceStore.builder(dataSource).build();
        }
        return nativeStore;
    }

    @Override
    public long inTransaction(ToLongFunction<Object> takeValue, long appNanos) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                long value = takeValue.applyAsLong(connection);
                Pause.nanos(appNanos);
                connection.commit();
                return value;
            } catch (RuntimeException | SQLException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    @Override
    public boolean hasNativeSequences() {
        return true;
    }

    /** A separate sequence per increment, since an existing sequence's step is never changed here. */
    @Override
    public LongSupplier nativeSequence(int increment) {
        String name = "strategy_table_seq_" + increment;
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(database.createSequenceSql(name, increment));
        } catch (SQLException e) {
            throw new IllegalStateException("could not create sequence " + name + ": " + e.getMessage(), e);
        }
        String sql = database.nextValueSql(name);
        return () -> {
            Pause.nanos(storeLatencyNanos);
            try (Connection connection = pool.getConnection();
                    PreparedStatement select = connection.prepareStatement(sql);
                    ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            } catch (SQLException e) {
                throw new IllegalStateException(sql + " failed: " + e.getMessage(), e);
            }
        };
    }

    @Override
    public void close() {
        pool.close();
    }
}
