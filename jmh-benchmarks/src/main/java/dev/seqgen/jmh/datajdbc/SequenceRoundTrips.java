package dev.seqgen.jmh.datajdbc;

import dev.seqgen.jmh.Pause;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A data source that counts the statements sent to a sequence, and makes each take {@code latencyNanos} longer: a
 * sequence store far away. A statement goes to a sequence when its SQL names seqgen's sequence table or calls a
 * database sequence ({@code nextval}, {@code NEXT VALUE FOR}); every other statement (the inserts) runs as it is.
 */
final class SequenceRoundTrips extends DelegatingDataSource {

    private final String sequenceTable;
    private final long latencyNanos;
    private final LongAdder count = new LongAdder();

    SequenceRoundTrips(DataSource delegate, String sequenceTable, long latencyNanos) {
        super(delegate);
        this.sequenceTable = sequenceTable.toLowerCase(Locale.ROOT);
        this.latencyNanos = latencyNanos;
    }

    /** The sequence round trips so far. */
    long count() {
        return count.sum();
    }

    private boolean toSequence(String sql) {
        String lower = sql.toLowerCase(Locale.ROOT);
        return lower.contains(sequenceTable) || lower.contains("nextval") || lower.contains("next value for");
    }

    @Override
    public Connection getConnection() throws SQLException {
        return counted(obtainTargetDataSource().getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return counted(obtainTargetDataSource().getConnection(username, password));
    }

    private Connection counted(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    Object result = invoke(method, connection, args);
                    if (method.getName().equals("prepareStatement") && toSequence((String) args[0])) {
                        return slowed(PreparedStatement.class, result, true);
                    }
                    if (method.getName().equals("createStatement")) {
                        return slowed(Statement.class, result, false);
                    }
                    return result;
                });
    }

    /** A statement whose executions pause and count: all (a prepared one of a sequence), or those of a sequence. */
    private Object slowed(Class<?> type, Object statement, boolean prepared) {
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getName().startsWith("execute")
                    && (prepared || (args != null && args.length > 0 && args[0] instanceof String sql
                            && toSequence(sql)))) {
                count.increment();
                Pause.nanos(latencyNanos);
            }
            return invoke(method, statement, args);
        });
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
