package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.TestDatabase;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The round trips a flush of numbered series sends to seqgen's rows, counted statement by statement on every
 * connection: N entities of one series take one increment of its row, N entities of k series take k, on the
 * session's connection, with nothing else of seqgen's on any connection (the series' row is created and moved above
 * its rows once, at its first use, not at every flush).
 *
 * <p>One increment is one statement where the database returns the updated value from the update (PostgreSQL's
 * {@code RETURNING}, H2's data-change delta table, MariaDB's {@code LAST_INSERT_ID(expr)} returned with the update's
 * reply as its generated key); on HSQLDB it is the {@code UPDATE} and a read of the row (in process).
 */
class SeriesFlushRoundTripsTest {

    private static final String PREFIX = HibernateTesting.prefix("hsr_");

    /** Fifty invoices of one tenant in one flush: one increment of the tenant's row, numbers consecutive. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void fiftyInvoicesOfOneTenantTakeOneIncrement(TestDatabase db) {
        int invoices = 50;
        String seqgenTable = TestDatabase.uniqueTable();
        String table = PREFIX + "tenant_invoice";
        Statements statements = new Statements();
        try (SessionFactory factory = HibernateTesting.sessionFactory(statements.wrap(db.dataSource()), PREFIX,
                seqgenTable, Map.of(AvailableSettings.STATEMENT_BATCH_SIZE, 50), TenantInvoice.class)) {
            inTenant(factory, "acme", session -> session.persist(new TenantInvoice(0)));

            List<TenantInvoice> persisted = new ArrayList<>();
            statements.record(() -> inTenant(factory, "acme", session -> {
                for (int i = 0; i < invoices; i++) {
                    TenantInvoice invoice = new TenantInvoice(i);
                    session.persist(invoice);
                    persisted.add(invoice);
                }
            }));

            assertThat(persisted).extracting(TenantInvoice::number).as("after the first use's 1, in persist order")
                    .containsExactlyElementsOf(LongStream.rangeClosed(2, invoices + 1).boxed().toList());
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "tenant_invoice_numbers#acme"))
                    .isEqualTo(invoices + 2L);
            statements.assertIncrements(db, seqgenTable, table, 1);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    /**
     * Forty invoices of four series (company and year) persisted in turn, in one flush: one increment per series, each
     * series' numbers consecutive in persist order.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void fortyInvoicesOfFourSeriesTakeFourIncrements(TestDatabase db) {
        List<String> companies = List.of("ACME", "Globex", "Initech", "Umbrella");
        int perCompany = 10;
        LocalDate date = LocalDate.of(2026, 3, 1);
        String seqgenTable = TestDatabase.uniqueTable();
        String table = PREFIX + "series_invoice";
        Statements statements = new Statements();
        try (SessionFactory factory = HibernateTesting.sessionFactory(statements.wrap(db.dataSource()), PREFIX,
                seqgenTable, Map.of(AvailableSettings.STATEMENT_BATCH_SIZE, 50), SeriesInvoice.class)) {
            HibernateTesting.inTransaction(factory,
                    session -> companies.forEach(company -> session.persist(new SeriesInvoice(company, date))));

            Map<String, List<SeriesInvoice>> persisted = new LinkedHashMap<>();
            statements.record(() -> HibernateTesting.inTransaction(factory, session -> {
                for (int i = 0; i < perCompany; i++) {
                    for (String company : companies) {
                        SeriesInvoice invoice = new SeriesInvoice(company, date);
                        session.persist(invoice);
                        persisted.computeIfAbsent(company, ignored -> new ArrayList<>()).add(invoice);
                    }
                }
            }));

            for (String company : companies) {
                assertThat(persisted.get(company)).extracting(SeriesInvoice::number).as(company)
                        .containsExactlyElementsOf(LongStream.rangeClosed(2, perCompany + 1).boxed().toList());
                assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable,
                        "series_invoice_numbers#" + company + "/2026")).as(company).isEqualTo(perCompany + 2L);
            }
            statements.assertIncrements(db, seqgenTable, table, companies.size());
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    private static void inTenant(SessionFactory factory, String tenant, Consumer<Session> work) {
        try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
            Transaction transaction = session.beginTransaction();
            work.accept(session);
            transaction.commit();
        }
    }

    /**
     * A data source proxy that records, while {@link #record} runs, every statement executed on each of its
     * connections (a prepared statement's SQL at each execution, a plain statement's SQL as executed), in lower case.
     */
    private static final class Statements {

        private final AtomicInteger connections = new AtomicInteger();
        private final Map<Integer, List<String>> executed = new LinkedHashMap<>();
        private volatile boolean recording;

        DataSource wrap(DataSource target) {
            return proxy(DataSource.class, target, (method, args, result) -> method.getName().equals("getConnection")
                    ? connection((Connection) result, connections.incrementAndGet()) : result);
        }

        void record(Runnable work) {
            recording = true;
            try {
                work.run();
            } finally {
                recording = false;
            }
        }

        private Connection connection(Connection target, int id) {
            return proxy(Connection.class, target, (method, args, result) -> {
                if (method.getName().equals("prepareStatement") && args[0] instanceof String sql) {
                    return proxy(java.sql.PreparedStatement.class, (java.sql.PreparedStatement) result,
                            (m, a, r) -> executed(id, m, sql, r));
                }
                if (method.getName().equals("createStatement")) {
                    return proxy(Statement.class, (Statement) result, (m, a, r) -> executed(id, m,
                            a != null && a.length > 0 && a[0] instanceof String sql ? sql : null, r));
                }
                return result;
            });
        }

        private Object executed(int connection, Method method, String sql, Object result) {
            if (recording && sql != null && method.getName().startsWith("execute")) {
                synchronized (executed) {
                    executed.computeIfAbsent(connection, ignored -> new ArrayList<>()).add(sql.toLowerCase(Locale.ROOT));
                }
            }
            return result;
        }

        /**
         * Asserts that one connection inserted into {@code table}, and besides its inserts sent {@code increments}
         * increments of seqgen's row (one or two statements each, by database) and nothing else; and that no other
         * connection read {@code table}: no series was moved above its rows again. (Other connections may reserve
         * blocks of the ids' ASYNC_BATCH sequence on seqgen's table, in the store's own transactions.)
         */
        void assertIncrements(TestDatabase db, String seqgenTable, String table, int increments) {
            String seqgen = seqgenTable.toLowerCase(Locale.ROOT);
            String insert = "insert into " + table;
            Map<Integer, List<String>> byConnection;
            synchronized (executed) {
                byConnection = new LinkedHashMap<>(executed);
            }
            List<List<String>> inserting = byConnection.values().stream()
                    .filter(sqls -> sqls.stream().anyMatch(sql -> sql.startsWith(insert))).toList();
            assertThat(inserting).as("connections that inserted: %s", byConnection).hasSize(1);
            List<String> others = inserting.get(0).stream().filter(sql -> !sql.startsWith(insert)).toList();
            int perIncrement = db == TestDatabase.HSQLDB ? 2 : 1;
            assertThat(others).as("statements besides the inserts on the session's connection")
                    .hasSize(increments * perIncrement)
                    .allSatisfy(sql -> assertThat(sql).satisfiesAnyOf(s -> assertThat(s).contains(seqgen),
                            s -> assertThat(s).contains("last_insert_id")));
            assertThat(others.stream().filter(sql -> sql.contains("update " + seqgen))).as("increments of seqgen's row")
                    .hasSize(increments);
            byConnection.values().stream().filter(sqls -> sqls != inserting.get(0)).forEach(sqls -> assertThat(sqls)
                    .as("another connection's statements: no read of the invoices, no series row moved")
                    .noneMatch(sql -> sql.contains(" " + table + " ") || sql.endsWith(" " + table)));
        }

        @FunctionalInterface
        private interface AfterCall {
            Object apply(Method method, Object[] args, Object result) throws Exception;
        }

        private static <T> T proxy(Class<T> type, T target, AfterCall after) {
            return type.cast(Proxy.newProxyInstance(SeriesFlushRoundTripsTest.class.getClassLoader(),
                    new Class<?>[] {type}, (proxy, method, args) -> {
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
}
