package dev.seqgen.reliability;

import dev.seqgen.testing.ForwardingDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * A data source over a pool that counts the connections borrowed and can reset each connection when it is
 * returned, as PgBouncer ({@code server_reset_query = DISCARD ALL}) or a driver-level pool reset does. The
 * pool itself (HikariCP) runs {@code connectionInitSql} only when it opens a connection, never on return, so
 * the reset has to happen here.
 */
final class ObservedDataSource extends ForwardingDataSource {

    /** What is done to a connection just before it goes back to the pool. */
    @FunctionalInterface
    interface OnReturn {
        void reset(Connection connection) throws SQLException;
    }

    /** PostgreSQL: drop every session state (prepared statements, temp tables, settings, advisory locks). */
    static final OnReturn DISCARD_ALL = connection -> {
        try (Statement statement = connection.createStatement()) {
            statement.execute("DISCARD ALL");
        }
    };

    /** MariaDB: COM_RESET_CONNECTION (session variables, temp tables, prepared statements, LAST_INSERT_ID). */
    static final OnReturn RESET_CONNECTION = connection -> connection.unwrap(org.mariadb.jdbc.Connection.class).reset();

    private final OnReturn onReturn;
    private final AtomicLong borrowed = new AtomicLong();
    private final AtomicLong resets = new AtomicLong();

    ObservedDataSource(DataSource pool, OnReturn onReturn) {
        super(pool);
        this.onReturn = onReturn;
    }

    long borrowed() {
        return borrowed.get();
    }

    long resets() {
        return resets.get();
    }

    @Override
    public Connection getConnection() throws SQLException {
        borrowed.incrementAndGet();
        Connection connection = delegate.getConnection();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        try {
                            if (!connection.isClosed()) {
                                onReturn.reset(connection);
                                resets.incrementAndGet();
                            }
                        } finally {
                            connection.close();
                        }
                        return null;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("use getConnection()");
    }
}
