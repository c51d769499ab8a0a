package dev.seqgen.jdbc;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link DataSource} for seqgen's own transactions that borrows one connection from the application's pool
 * at startup, keeps it, and lends it to one seqgen statement at a time: what
 * {@link JdbcSequenceStore.Builder#dedicatedConnection(boolean)} turns on.
 *
 * <pre>
 * Why: the pool deadlock
 *
 * An inserting thread holds its session's pooled connection (Hibernate takes it at begin()) while the id
 * generator runs. If a reservation borrowed a second connection from the same pool, then with a pool of n
 * connections, n inserting threads can each hold one and wait for another: a cycle that only the pool's
 * connection timeout ends. A pool deadlock needs "hold one, wait for another of the same pool". Seqgen's
 * statements here never wait for the pool, because their connection was taken before any session existed;
 * they wait only for this lock, whose holder never waits for anything but the database. So every wait chain
 * ends at a running seqgen statement, and there is no cycle, whatever the pool size (at least 2: one for
 * seqgen, one for the application).
 *
 * What was traded: one pooled connection is kept for the session factory's lifetime, and seqgen's own
 * statements (reservations of every sequence, background refills, row creation, give-back) run one at a
 * time. Reservations of one sequence serialise on its row lock anyway; BATCH and ASYNC_BATCH make them rare.
 *
 * Who may use the connection: the thread that holds lock, between getConnection() and close() of the lent
 * handle. A lent handle refuses calls after its close(), so a stale reference cannot touch the connection
 * of the next borrower. A connection found closed on return, or invalid when lent after being idle, is
 * given back to the pool and replaced by a new one on the next borrow; that one borrow can wait for the
 * pool (the pool's own timeout bounds it).
 * </pre>
 */
final class DedicatedConnectionDataSource implements DataSource, AutoCloseable {

    /** Longest a seqgen statement waits for the one connection while another seqgen statement uses it. */
    private static final long LEND_TIMEOUT_SECONDS = 30;
    /** Idle time after which the connection is validated before it is lent, as pools do. */
    private static final long VALIDATE_AFTER_IDLE_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long {@link Connection#isValid(int)} may take. */
    private static final int VALIDATION_TIMEOUT_SECONDS = 5;

    private static final System.Logger LOG = System.getLogger(DedicatedConnectionDataSource.class.getName());

    private final DataSource pool;
    private final ReentrantLock lock = new ReentrantLock(true);
    /** The dedicated connection, or null after it was found broken; guarded by {@code lock}. */
    private @Nullable Connection connection;
    /** When the connection was last given back, in {@link System#nanoTime()}; guarded by {@code lock}. */
    private long returnedAt;
    /** Whether {@link #close()} ran; guarded by {@code lock}. */
    private boolean closed;

    /**
     * Borrows the dedicated connection at once.
     *
     * @param pool the application's pool
     * @throws SQLException if the pool has no connection
     */
    DedicatedConnectionDataSource(DataSource pool) throws SQLException {
        this.pool = pool;
        this.connection = pool.getConnection();
        this.returnedAt = System.nanoTime();
    }

    @Override
    public Connection getConnection() throws SQLException {
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
            return lend();
        } catch (SQLException | RuntimeException | Error e) {
            lock.unlock();
            throw e;
        }
    }

    /** Called holding {@code lock}. */
    private Connection lend() throws SQLException {
        if (closed) {
            throw new SQLNonTransientConnectionException("seqgen's dedicated connection is closed", "08003");
        }
        if (connection != null && System.nanoTime() - returnedAt > VALIDATE_AFTER_IDLE_NANOS
                && !isValid(connection)) {
            discard();
        }
        if (connection == null) {
            connection = pool.getConnection();
            LOG.log(System.Logger.Level.WARNING, "seqgen's dedicated connection was found broken and has been"
                    + " replaced by a new one from the pool");
        }
        Connection lent = connection;
        return (Connection) Proxy.newProxyInstance(DedicatedConnectionDataSource.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new Lent(lent));
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
                // It is broken already; the pool evicts it.
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
            switch (method.getName()) {
                case "close":
                    if (!returned) {
                        returned = true;
                        giveBack(target);
                    }
                    return null;
                case "isClosed":
                    return returned || target.isClosed();
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "seqgen dedicated connection " + target;
                default:
                    if (returned) {
                        throw new SQLNonTransientConnectionException("this seqgen connection handle was closed",
                                "08003");
                    }
                    try {
                        return method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
            }
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("seqgen's dedicated connection has fixed credentials");
    }

    @Override
    public @Nullable PrintWriter getLogWriter() throws SQLException {
        return pool.getLogWriter();
    }

    @Override
    public void setLogWriter(@Nullable PrintWriter out) throws SQLException {
        pool.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        pool.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return pool.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return pool.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        return pool.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || pool.isWrapperFor(type);
    }
}
