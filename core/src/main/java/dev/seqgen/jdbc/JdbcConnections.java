package dev.seqgen.jdbc;

import dev.seqgen.spi.SequenceStoreException;

import java.lang.System.Logger.Level;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The connections of seqgen's JDBC stores: a dedicated one kept until {@link #close()} ({@link Dedicated}) or one
 * from the pool per statement; the {@link JdbcDialect} detected on it; and transactions of the store's own that
 * never hide the outcome of the work.
 */
final class JdbcConnections implements AutoCloseable {

    private final DataSource pool;
    private final @Nullable Dedicated dedicated;
    private final JdbcDialect dialect;

    /** Borrows the dedicated connection if asked to and detects the dialect unless given; {@code store} names it. */
    JdbcConnections(DataSource pool, boolean dedicatedConnection, @Nullable JdbcDialect dialect, String store) {
        this.pool = pool;
        try {
            this.dedicated = dedicatedConnection ? new Dedicated(pool) : null;
        } catch (SQLException e) {
            throw new SequenceStoreException("the seqgen " + store + " could not borrow its dedicated connection: "
                    + e.getMessage(), e, false);
        }
        try {
            this.dialect = dialect != null ? dialect : read(connection -> JdbcDialect.forProductName(
                    connection.getMetaData().getDatabaseProductName()), e -> new SequenceStoreException(
                            "could not detect the database of the seqgen " + store + ": " + e.getMessage(), e, false));
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    JdbcDialect dialect() {
        return dialect;
    }

    /** The caller closes it. */
    Connection get() throws SQLException {
        return dedicated != null ? dedicated.getConnection() : pool.getConnection();
    }

    /** Runs the work on a connection of the store's own, outside any caller's transaction; fails as {@code failure}. */
    <T extends @Nullable Object> T read(SqlWork<T> work, Function<SQLException, RuntimeException> failure) {
        try (Connection connection = get()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw failure.apply(e);
        }
    }

    <T extends @Nullable Object> T inOwnTransaction(SqlWork<T> work) throws SQLException {
        try (Connection connection = get()) {
            return dialect.isSpanner() ? withoutAutoBatchDml(connection, work) : inTransaction(connection, true, work);
        }
    }

    /** With the Spanner driver's {@code auto_batch_dml} on, each DML reports an assumed update count of 1. */
    private <T extends @Nullable Object> T withoutAutoBatchDml(Connection connection, SqlWork<T> work)
            throws SQLException {
        boolean postgresql = dialect == JdbcDialect.SPANNER_POSTGRESQL;
        String variable = postgresql ? "SPANNER.AUTO_BATCH_DML" : "AUTO_BATCH_DML";
        boolean autoBatchDml;
        try (Statement show = connection.createStatement();
                ResultSet rs = show.executeQuery((postgresql ? "SHOW " : "SHOW VARIABLE ") + variable)) {
            autoBatchDml = rs.next() && rs.getBoolean(1);
        } catch (SQLException unknownVariable) {
            // A driver older than the setting has no auto-batching to turn off.
            autoBatchDml = false;
        }
        if (!autoBatchDml) {
            return inTransaction(connection, true, work);
        }
        try (Statement set = connection.createStatement()) {
            set.execute("SET " + variable + " = false");
        }
        try {
            return inTransaction(connection, true, work);
        } finally {
            try (Statement set = connection.createStatement()) {
                set.execute("SET " + variable + " = true");
            } catch (SQLException broken) {
                // Never hides the work's outcome; the pool discards a broken connection.
            }
        }
    }

    /**
     * Runs the work in a transaction, committed or rolled back: one begun for it if {@code begin} and in auto-commit
     * mode (restored after), or the connection's own. A rollback's error never replaces the work's.
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
                try {
                    connection.setAutoCommit(true);
                } catch (SQLException broken) {
                    // Never hides the outcome; the pool discards a connection that cannot.
                }
            }
        }
    }

    @Override
    public void close() {
        if (dedicated != null) {
            dedicated.close();
        }
    }

    @Override
    public String toString() {
        return dedicated != null ? "dedicated connection" : "connections from the pool";
    }

    /**
     * Lends one connection borrowed at start-up to one seqgen statement at a time: its statements wait only for
     * {@code lock}, whose holder waits only for the database (docs/design.md#dedicated-connection). A broken
     * connection is replaced at the next borrow.
     */
    static final class Dedicated implements AutoCloseable {

        /** Longest a seqgen statement waits for the one connection while another seqgen statement uses it. */
        private static final long LEND_TIMEOUT_SECONDS = 30;
        /** Idle time after which the connection is validated before it is lent, as pools do. */
        private static final long VALIDATE_AFTER_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
        private static final int VALIDATION_TIMEOUT_SECONDS = 5;

        private static final System.Logger LOG = System.getLogger(JdbcConnections.class.getName());

        private final DataSource pool;
        private final ReentrantLock lock = new ReentrantLock(true);
        /** Guarded by {@code lock}: null after it was found broken; last given back, as {@link System#nanoTime()}. */
        private @Nullable Connection connection;
        private long returnedAt;
        private boolean closed;

        Dedicated(DataSource pool) throws SQLException {
            this.pool = pool;
            this.connection = pool.getConnection();
            this.returnedAt = System.nanoTime();
        }

        Connection getConnection() throws SQLException {
            if (lock.isHeldByCurrentThread()) {
                throw new SQLNonTransientConnectionException("seqgen's dedicated connection is already lent to this"
                        + " thread; nested use would share its transaction", "08003");
            }
            try {
                if (!lock.tryLock(LEND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new SQLTransientConnectionException("seqgen's dedicated connection stayed busy for "
                            + LEND_TIMEOUT_SECONDS + " s", "08001");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLTransientConnectionException("interrupted while waiting for seqgen's dedicated connection",
                        "08001", e);
            }
            try {
                if (closed) {
                    throw new SQLNonTransientConnectionException("seqgen's dedicated connection is closed", "08003");
                }
                if (connection != null && System.nanoTime() - returnedAt > VALIDATE_AFTER_IDLE_NANOS
                        && !isValid(connection)) {
                    discard();
                }
                if (connection == null) {
                    connection = pool.getConnection();
                    LOG.log(Level.WARNING, "seqgen's dedicated connection was found broken and has been"
                            + " replaced by a new one from the pool");
                }
                return (Connection) Proxy.newProxyInstance(Dedicated.class.getClassLoader(),
                        new Class<?>[] {Connection.class}, new Lent(connection));
            } catch (SQLException | RuntimeException | Error e) {
                lock.unlock();
                throw e;
            }
        }

        private static boolean isValid(Connection connection) {
            try {
                return connection.isValid(VALIDATION_TIMEOUT_SECONDS);
            } catch (SQLException e) {
                return false;
            }
        }

        /** Called holding {@code lock}, which it releases. */
        private void giveBack(Connection lent) {
            try {
                if (lent.isClosed()) {
                    discard();
                }
            } catch (SQLException e) {
                discard();
            } finally {
                returnedAt = System.nanoTime();
                lock.unlock();
            }
        }

        /** Called holding {@code lock}. */
        private void discard() {
            Connection broken = connection;
            connection = null;
            if (broken != null) {
                try {
                    broken.close();
                } catch (SQLException ignored) {
                    // the pool evicts it
                }
            }
        }

        /** Returns the connection to the pool once no seqgen statement uses it. Idempotent. */
        @Override
        public void close() {
            lock.lock();
            try {
                closed = true;
                discard();
            } finally {
                lock.unlock();
            }
        }

        /** The handle a borrower gets: the connection, until the borrower closes it. */
        private final class Lent implements InvocationHandler {

            private final Connection target;
            private boolean returned;

            Lent(Connection target) {
                this.target = target;
            }

            @Override
            public @Nullable Object invoke(Object proxy, Method method, @Nullable Object @Nullable [] args)
                    throws Throwable {
                return switch (method.getName()) {
                    case "close" -> {
                        if (!returned) {
                            returned = true;
                            giveBack(target);
                        }
                        yield null;
                    }
                    case "isClosed" -> returned || target.isClosed();
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "seqgen dedicated connection " + target;
                    default -> {
                        if (returned) {
                            throw new SQLNonTransientConnectionException("this seqgen connection handle was closed",
                                    "08003");
                        }
                        try {
                            yield method.invoke(target, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                };
            }
        }
    }

    @FunctionalInterface
    interface SqlWork<T extends @Nullable Object> {

        T run(Connection connection) throws SQLException;
    }
}
