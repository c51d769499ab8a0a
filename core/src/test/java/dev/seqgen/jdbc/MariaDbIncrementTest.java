package dev.seqgen.jdbc;

import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB's increment of a row: one round trip where the driver returns the value of {@code LAST_INSERT_ID(expr)} as
 * the update's generated key, and a read of {@code LAST_INSERT_ID()} on the same connection where a driver returns
 * none (forced here by a connection whose updates report no key). Every statement sent is recorded.
 */
class MariaDbIncrementTest {

    private final String table = TestDatabase.uniqueTable();
    private final JdbcSequenceStore store = JdbcSequenceStore.builder(TestDatabase.MARIADB.dataSource()).table(table)
            .build();
    private final List<String> sent = new ArrayList<>();

    @AfterEach
    void dropTable() {
        TestDatabase.MARIADB.dropTable(table);
    }

    @Test
    void theIncrementIsOneStatementAndReturnsTheRowsNewValue() throws SQLException {
        store.createTableIfMissing();
        store.createSequence("orders", 41);
        try (Connection connection = recording(TestDatabase.MARIADB.dataSource().getConnection(), false)) {
            connection.setAutoCommit(false);
            assertThat(JdbcDialect.MARIADB.increment(connection, table, "orders", 5, Long.MAX_VALUE)).isEqualTo(46);
            assertThat(JdbcDialect.MARIADB.increment(connection, table, "orders", 1, Long.MAX_VALUE)).isEqualTo(47);
            connection.commit();
        }
        assertThat(sent).hasSize(2).allSatisfy(sql -> assertThat(sql).startsWith("update "));
        assertThat(rowValue()).isEqualTo(47);
    }

    @Test
    void aDriverThatReturnsNoKeyIsAnsweredByReadingLastInsertId() throws SQLException {
        store.createTableIfMissing();
        store.createSequence("orders", 41);
        try (Connection connection = recording(TestDatabase.MARIADB.dataSource().getConnection(), true)) {
            connection.setAutoCommit(false);
            assertThat(JdbcDialect.MARIADB.increment(connection, table, "orders", 5, Long.MAX_VALUE)).isEqualTo(46);
            connection.commit();
        }
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0)).startsWith("update ");
        assertThat(sent.get(1)).isEqualTo("select last_insert_id()");
        assertThat(rowValue()).isEqualTo(46);
    }

    @Test
    void aRowThatDoesNotFitTheBlockIsNotMovedAndNoValueIsReturned() throws SQLException {
        store.createTableIfMissing();
        store.createSequence("orders", 41);
        try (Connection connection = recording(TestDatabase.MARIADB.dataSource().getConnection(), false)) {
            assertThat(JdbcDialect.MARIADB.increment(connection, table, "orders", 5, 40)).isEqualTo(JdbcDialect.NO_ROW);
        }
        assertThat(rowValue()).isEqualTo(41);
    }

    private long rowValue() throws SQLException {
        try (Connection connection = TestDatabase.MARIADB.dataSource().getConnection();
                Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT next_value FROM " + table + " WHERE name = 'orders'")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    /** Records each statement executed; with {@code noKeys}, an update's generated keys are an empty result. */
    private Connection recording(Connection connection, boolean noKeys) {
        return proxy(Connection.class, (self, method, args) -> {
            Object result = invoke(connection, method, args);
            if (method.getName().equals("prepareStatement")) {
                String sql = ((String) args[0]).toLowerCase(Locale.ROOT);
                PreparedStatement statement = (PreparedStatement) result;
                return proxy(PreparedStatement.class, (s, m, a) -> {
                    if (m.getName().startsWith("execute")) {
                        sent.add(sql);
                    }
                    if (noKeys && m.getName().equals("getGeneratedKeys")) {
                        return connection.createStatement().executeQuery("SELECT 1 FROM DUAL WHERE FALSE");
                    }
                    return invoke(statement, m, a);
                });
            }
            if (method.getName().equals("createStatement")) {
                Statement statement = (Statement) result;
                return proxy(Statement.class, (s, m, a) -> {
                    if (m.getName().startsWith("execute")) {
                        sent.add(((String) a[0]).toLowerCase(Locale.ROOT));
                    }
                    return invoke(statement, m, a);
                });
            }
            return result;
        });
    }

    private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return type.cast(Proxy.newProxyInstance(MariaDbIncrementTest.class.getClassLoader(), new Class<?>[] {type},
                handler));
    }
}
