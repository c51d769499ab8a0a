package dev.seqgen.jmh.table;

import dev.seqgen.jmh.Pause;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A data source whose connections take {@code latencyNanos} longer to commit, with their locks still held:
 * a database far away, or one that waits for its replicas before it acknowledges a commit, as Spanner does.
 * A transaction that updated the sequence row keeps it locked for the extra time, so reservations of one row
 * are serialised through the latency exactly as they would be on such a database. The commits are counted: with
 * one store over the data source, its transactions.
 */
public final class CommitLatencyDataSource extends DelegatingDataSource {

    private final long latencyNanos;
    private final LongAdder commits = new LongAdder();

    /**
     * Wraps a data source.
     *
     * @param delegate where the connections come from
     * @param latencyNanos what every commit waits before it runs; 0 for none
     */
    public CommitLatencyDataSource(DataSource delegate, long latencyNanos) {
        super(delegate);
        this.latencyNanos = latencyNanos;
    }

    /** @return the commits called on this data source's connections so far */
    public long commits() {
        return commits.sum();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return slowCommits(obtainTargetDataSource().getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return slowCommits(obtainTargetDataSource().getConnection(username, password));
    }

    private Connection slowCommits(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("commit") && method.getParameterCount() == 0) {
                        Pause.nanos(latencyNanos);
                        commits.increment();
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
