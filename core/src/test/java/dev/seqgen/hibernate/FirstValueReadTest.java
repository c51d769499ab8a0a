package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Strategy;
import dev.seqgen.testing.ForwardingDataSource;
import dev.seqgen.testing.TestDatabase;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;

/**
 * The read of a table's highest id at a sequence's first value runs through the store, on a connection of its own,
 * never in the caller's transaction (on Cloud Spanner it would otherwise begin the caller's read-write transaction
 * and widen its locks and abort surface): every statement is recorded with the connection it ran on.
 */
class FirstValueReadTest {

    @Entity
    @Table(name = "fvr_ticket")
    public static class Ticket {

        @Id
        @GeneratedValue
        @SeqgenGenerator(sequence = "fvr_tickets", strategy = Strategy.ASYNC_BATCH)
        private Long id;

        Long id() {
            return id;
        }
    }

    /** A statement and the connection it ran on (numbered in the order they were handed out). */
    record Executed(int connection, String sql) {
    }

    @Test
    void theFirstValuesReadOfTheHighestIdRunsOnTheStoresConnectionNotTheCallers() throws Exception {
        List<Executed> executed = new CopyOnWriteArrayList<>();
        DataSource recording = new Recording(TestDatabase.H2.dataSource(), executed);
        String seqgenTable = TestDatabase.uniqueTable();
        try {
            try (SessionFactory created = HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), "", seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), Ticket.class)) {
                assertThat(created).isNotNull();
            }
            TestDatabase.H2.dropTable(seqgenTable);
            HibernateTesting.insertIds(TestDatabase.H2.dataSource(), "fvr_ticket", 1, 10);

            Ticket ticket = new Ticket();
            try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(recording, "", seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "none"), Ticket.class)) {
                executed.clear(); // the start-up's statements: what follows is the first value's
                HibernateTesting.inTransaction(sessionFactory, session -> session.persist(ticket));
            }
            assertThat(ticket.id()).as("adopted: above the rows 1..10").isEqualTo(11);

            List<Integer> inserting = connectionsRunning(executed, "insert into fvr_ticket");
            List<Integer> reading = connectionsRunning(executed, "select max(");
            assertThat(inserting).as("the caller's connection").hasSize(1);
            assertThat(reading).as("the first value read the highest id").isNotEmpty()
                    .doesNotContainAnyElementsOf(inserting);
        } finally {
            TestDatabase.H2.dropTable("fvr_ticket");
            TestDatabase.H2.dropTable(seqgenTable);
        }
    }

    private static List<Integer> connectionsRunning(List<Executed> executed, String sqlStart) {
        return executed.stream().filter(e -> e.sql().toLowerCase(Locale.ROOT).strip().startsWith(sqlStart))
                .map(Executed::connection).distinct().toList();
    }

    /** Hands out connections that record every statement they prepare or execute. */
    private static final class Recording extends ForwardingDataSource {

        private final List<Executed> executed;
        private final AtomicInteger connections = new AtomicInteger();

        Recording(DataSource delegate, List<Executed> executed) {
            super(delegate);
            this.executed = executed;
        }

        @Override
        public Connection getConnection() throws SQLException {
            Connection connection = delegate.getConnection();
            int number = connections.incrementAndGet();
            return proxy(Connection.class, connection, (method, args) -> {
                if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql) {
                    executed.add(new Executed(number, sql));
                }
                Object result = method.invoke(connection, args);
                if (result instanceof Statement statement && method.getName().equals("createStatement")) {
                    return proxy(Statement.class, statement, (statementMethod, statementArgs) -> {
                        if (statementMethod.getName().startsWith("execute") && statementArgs != null
                                && statementArgs[0] instanceof String sql) {
                            executed.add(new Executed(number, sql));
                        }
                        return statementMethod.invoke(statement, statementArgs);
                    });
                }
                return result;
            });
        }

        interface Call {
            Object invoke(java.lang.reflect.Method method, Object[] args) throws Throwable;
        }

        private static <T> T proxy(Class<T> type, T target, Call call) {
            InvocationHandler handler = (proxy, method, args) -> {
                if (method.getName().equals("unwrap") && args != null && args[0] == type) {
                    return target;
                }
                try {
                    return call.invoke(method, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return type.cast(Proxy.newProxyInstance(FirstValueReadTest.class.getClassLoader(),
                    new Class<?>[] {type}, handler));
        }
    }
}
