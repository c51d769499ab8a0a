package dev.seqgen.jdbc;

import dev.seqgen.spi.SequenceStoreException;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Where the statements of a seqgen JDBC store ({@link JdbcSequenceStore}, {@link NativeSequenceStore}) get their
 * connections, and how they run in transactions of their own: one connection the store borrows when it is built
 * and keeps until {@link #close()} ({@link DedicatedConnectionDataSource}, which lends it to one statement at a
 * time and replaces it when it breaks), or a connection from the application's pool per statement; the
 * {@link JdbcDialect} detected on it; and a transaction that commits, rolls back and turns auto-commit back on
 * without ever hiding the outcome of the work. The stores' own statements and messages stay in the stores.
 */
final class JdbcConnections implements AutoCloseable {

    /** What the store's connections come from: {@link #dedicated}, or the application's pool. */
    private final DataSource dataSource;
    /**
     * The connection borrowed for {@link JdbcSequenceStore.Builder#dedicatedConnection(boolean)} or
     * {@link NativeSequenceStore.Builder#dedicatedConnection(boolean)}, or null. Why it exists: the application's
     * inserting threads hold their pooled connection while a generator runs (every JPA transaction does), so a
     * reservation that borrowed a second connection from the same pool could deadlock a small pool, n threads each
     * holding one connection and waiting for another; a connection taken before any of them never makes a
     * reservation wait for the pool (see {@link DedicatedConnectionDataSource}).
     */
    private final @Nullable DedicatedConnectionDataSource dedicated;
    private final JdbcDialect dialect;

    /**
     * Borrows the dedicated connection if asked to, and detects the dialect on it (or on a pooled connection)
     * unless one is given; gives the dedicated connection back if the detection fails.
     *
     * @param pool the application's data source
     * @param dedicatedConnection whether to borrow one connection and keep it
     * @param dialect the dialect, or null to detect it from the database's product name
     * @param store the store, for messages: {@code "JDBC store"}, {@code "native-sequence store"}
     * @throws SequenceStoreException if the dedicated connection could not be borrowed, or the dialect detected
     * @throws IllegalArgumentException if the database is not supported
     */
    JdbcConnections(DataSource pool, boolean dedicatedConnection, @Nullable JdbcDialect dialect, String store) {
        this.dedicated = dedicatedConnection ? borrowDedicated(pool, store) : null;
        this.dataSource = dedicated != null ? dedicated : pool;
        try {
            this.dialect = dialect != null ? dialect : detectDialect(dataSource, store);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private static DedicatedConnectionDataSource borrowDedicated(DataSource pool, String store) {
        try {
            return new DedicatedConnectionDataSource(pool);
        } catch (SQLException e) {
            throw new SequenceStoreException("the seqgen " + store + " could not borrow its dedicated connection: "
                    + e.getMessage(), e, false);
        }
    }

    private static JdbcDialect detectDialect(DataSource dataSource, String store) {
        try (Connection connection = dataSource.getConnection()) {
            return JdbcDialect.forProductName(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new SequenceStoreException("could not detect the database of the seqgen " + store + ": "
                    + e.getMessage(), e, false);
        }
    }

    /**
     * Returns the dialect, given or detected.
     *
     * @return the dialect
     */
    JdbcDialect dialect() {
        return dialect;
    }

    /**
     * Returns a connection for one of the store's statements: the dedicated one (waiting while another statement
     * of the store uses it) or one from the pool. The caller closes it.
     *
     * @return the connection
     * @throws SQLException if none could be had
     */
    Connection get() throws SQLException {
        return dataSource.getConnection();
    }

    /**
     * Runs the work in a transaction of its own on a connection of {@link #get()}, and commits it.
     *
     * @param work the statements
     * @param <T> what the work returns
     * @return what the work returned
     * @throws SQLException the work's failure (after a rollback), or the commit's
     */
    <T extends @Nullable Object> T inOwnTransaction(SqlWork<T> work) throws SQLException {
        try (Connection connection = get()) {
            if (dialect == JdbcDialect.SPANNER || dialect == JdbcDialect.SPANNER_POSTGRESQL) {
                return withoutAutoBatchDml(connection, work);
            }
            return inTransaction(connection, true, work);
        }
    }

    /**
     * Runs the work with the Spanner JDBC driver's {@code auto_batch_dml} off, and puts it back as it was. With it
     * on (Google's samples turn it on in the URL, which the store's connections share with the application), the
     * driver buffers each DML statement and answers it with an assumed update count of 1, checked when the batch
     * goes out: the store's {@code INSERT OR IGNORE} of a row that exists (0 rows) then failed that check, and
     * the compare-and-set of a give-back would believe an assumed 1. The setting belongs to the connection, which
     * may be the application's pooled one, so it is restored; the two client-side statements make no round trip.
     */
    private <T extends @Nullable Object> T withoutAutoBatchDml(Connection connection, SqlWork<T> work)
            throws SQLException {
        String variable = dialect == JdbcDialect.SPANNER_POSTGRESQL ? "SPANNER.AUTO_BATCH_DML" : "AUTO_BATCH_DML";
        boolean autoBatchDml;
        try (java.sql.Statement show = connection.createStatement();
                java.sql.ResultSet rs = show.executeQuery(
                        (dialect == JdbcDialect.SPANNER_POSTGRESQL ? "SHOW " : "SHOW VARIABLE ") + variable)) {
            autoBatchDml = rs.next() && rs.getBoolean(1);
        } catch (SQLException unknownVariable) {
            // A driver older than the setting has no auto-batching to turn off.
            autoBatchDml = false;
        }
        if (!autoBatchDml) {
            return inTransaction(connection, true, work);
        }
        try (java.sql.Statement set = connection.createStatement()) {
            set.execute("SET " + variable + " = false");
        }
        try {
            return inTransaction(connection, true, work);
        } finally {
            // Never hides the work's outcome (its values are taken once it committed); a connection that cannot
            // run a client-side statement is broken, and its pool discards it.
            try (java.sql.Statement set = connection.createStatement()) {
                set.execute("SET " + variable + " = true");
            } catch (SQLException ignored) {
                // broken: see above
            }
        }
    }

    /**
     * Runs the work on the connection and commits it, or rolls it back on a failure, when it runs in a
     * transaction: the one the work is given when {@code begin} is true and the connection is in auto-commit mode
     * (auto-commit is turned back on afterwards), or the one a connection whose auto-commit is off is always in.
     * In auto-commit mode with {@code begin} false, each statement of the work commits by itself.
     *
     * <p>Whether to commit or roll back is remembered, never asked of the connection again: after a failure the
     * connection may be broken, and asking it would throw an error of its own in place of the work's.
     *
     * @param connection the connection, which the caller closes
     * @param begin whether the work needs a transaction even on a connection in auto-commit mode
     * @param work the statements
     * @param <T> what the work returns
     * @return what the work returned
     * @throws SQLException the work's failure (after a rollback), or the commit's
     */
    static <T extends @Nullable Object> T inTransaction(Connection connection, boolean begin, SqlWork<T> work)
            throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        boolean begun = begin && autoCommit;
        boolean transaction = begun || !autoCommit;
        if (begun) {
            connection.setAutoCommit(false);
        }
        try {
            T result = work.run(connection);
            if (transaction) {
                connection.commit();
            }
            return result;
        } catch (SQLException | RuntimeException e) {
            if (transaction) {
                try {
                    connection.rollback();
                } catch (SQLException rollbackFailure) {
                    e.addSuppressed(rollbackFailure);
                }
            }
            throw e;
        } finally {
            if (begun) {
                restoreAutoCommit(connection);
            }
        }
    }

    /**
     * Turns auto-commit back on without ever hiding the outcome: after a commit the values are taken, and
     * after a failure its error (a lost connection is transient) must reach the retry. A connection that
     * cannot even do this is broken (HikariCP then answers "Connection is closed", with no SQLSTATE), and the
     * pool discards it.
     */
    private static void restoreAutoCommit(Connection connection) {
        try {
            connection.setAutoCommit(true);
        } catch (SQLException ignored) {
            // broken: see above
        }
    }

    /**
     * Returns the dedicated connection to the pool, if one was borrowed; otherwise does nothing. Idempotent.
     */
    @Override
    public void close() {
        if (dedicated != null) {
            dedicated.close();
        }
    }

    /** Describes the connection use for the stores' descriptions in logs. */
    @Override
    public String toString() {
        return dedicated != null ? "dedicated connection" : "connections from the pool";
    }

    /**
     * Statements run on one connection.
     *
     * @param <T> what they return
     */
    @FunctionalInterface
    interface SqlWork<T extends @Nullable Object> {

        /**
         * Runs the statements.
         *
         * @param connection the connection to run them on
         * @return their result
         * @throws SQLException if a statement failed
         */
        T run(Connection connection) throws SQLException;
    }
}
