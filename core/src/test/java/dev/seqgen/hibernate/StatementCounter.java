package dev.seqgen.hibernate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A data source proxy that counts, for the prepared statements whose SQL contains a given text, the statements
 * prepared, the rows added to JDBC batches, the batches executed and the statements executed one by one.
 */
final class StatementCounter {

    final AtomicInteger prepared = new AtomicInteger();
    final AtomicInteger rowsBatched = new AtomicInteger();
    final AtomicInteger batchesExecuted = new AtomicInteger();
    final AtomicInteger executedSingly = new AtomicInteger();
    private final String sqlFragment;

    StatementCounter(String sqlFragment) {
        this.sqlFragment = sqlFragment.toLowerCase(Locale.ROOT);
    }

    DataSource wrap(DataSource target) {
        return proxy(DataSource.class, target, (method, args, result) ->
                method.getName().equals("getConnection") ? connection((Connection) result) : result);
    }

    private Connection connection(Connection target) {
        return proxy(Connection.class, target, (method, args, result) -> {
            if (method.getName().equals("prepareStatement") && args[0] instanceof String sql
                    && sql.toLowerCase(Locale.ROOT).contains(sqlFragment)) {
                prepared.incrementAndGet();
                return statement((PreparedStatement) result);
            }
            return result;
        });
    }

    private PreparedStatement statement(PreparedStatement target) {
        return proxy(PreparedStatement.class, target, (method, args, result) -> {
            switch (method.getName()) {
                case "addBatch" -> rowsBatched.incrementAndGet();
                case "executeBatch", "executeLargeBatch" -> batchesExecuted.incrementAndGet();
                case "execute", "executeUpdate", "executeLargeUpdate" -> executedSingly.incrementAndGet();
                default -> {
                }
            }
            return result;
        });
    }

    @FunctionalInterface
    private interface AfterCall {
        Object apply(java.lang.reflect.Method method, Object[] args, Object result) throws Exception;
    }

    private static <T> T proxy(Class<T> type, T target, AfterCall after) {
        return type.cast(Proxy.newProxyInstance(StatementCounter.class.getClassLoader(), new Class<?>[] {type},
                (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(target, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    return after.apply(method, args, result);
                }));
    }
}
