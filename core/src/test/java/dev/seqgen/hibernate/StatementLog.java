package dev.seqgen.hibernate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.sql.DataSource;

/**
 * A data source proxy that records, per connection and in order, the SQL of every statement prepared on it, in
 * lower case: what a flush sent, and on which connection.
 */
final class StatementLog {

    private final Map<Connection, List<String>> prepared = Collections.synchronizedMap(new IdentityHashMap<>());

    DataSource wrap(DataSource target) {
        return (DataSource) Proxy.newProxyInstance(StatementLog.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(method, target, args);
                    return method.getName().equals("getConnection") ? connection((Connection) result) : result;
                });
    }

    /** The statements prepared on the connections that prepared one containing {@code fragment}. */
    List<List<String>> connectionsThatPrepared(String fragment) {
        String lower = fragment.toLowerCase(Locale.ROOT);
        synchronized (prepared) {
            return prepared.values().stream()
                    .filter(statements -> statements.stream().anyMatch(sql -> sql.contains(lower)))
                    .map(List::copyOf)
                    .toList();
        }
    }

    private Connection connection(Connection target) {
        List<String> statements = Collections.synchronizedList(new ArrayList<>());
        prepared.put(target, statements);
        return (Connection) Proxy.newProxyInstance(StatementLog.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("prepareStatement") && args[0] instanceof String sql) {
                        statements.add(sql.toLowerCase(Locale.ROOT));
                    }
                    return invoke(method, target, args);
                });
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
