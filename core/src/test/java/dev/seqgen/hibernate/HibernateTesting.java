package dev.seqgen.hibernate;

import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * Plain Hibernate bootstraps for the generator tests: no Spring, a DataSource from TestDatabase, seqgen's own
 * registry unless a test gives one. Entity tables get a per-test-class prefix made this JVM's own
 * ({@link #prefix}), so that test classes sharing the entity classes never share tables, nor do two builds sharing
 * a database server; hbm2ddl creates and drops them.
 */
final class HibernateTesting {

    /** This JVM's mark in table prefixes: four base-36 characters. */
    private static final String RUN = Integer.toString(
            ThreadLocalRandom.current().nextInt(36 * 36 * 36, 36 * 36 * 36 * 36), 36);

    private HibernateTesting() {
    }

    /**
     * A test class's table prefix, made this JVM's own: {@code prefix("hfn_")} is {@code hfn_<4 characters>_}, the
     * same for the whole JVM, so a class's tables have one name per build and another build on the same database
     * server never drops or fills them.
     */
    static String prefix(String classPrefix) {
        return classPrefix + RUN + "_";
    }

    /** A session factory over the data source with seqgen's rows in {@code seqgenTable}. */
    static SessionFactory sessionFactory(DataSource dataSource, String tablePrefix, String seqgenTable,
            Map<String, Object> settings, Class<?>... entities) {
        Configuration configuration = new Configuration();
        for (Class<?> entity : entities) {
            configuration.addAnnotatedClass(entity);
        }
        configuration.setPhysicalNamingStrategy(new PrefixedTables(tablePrefix));
        configuration.getProperties().put(AvailableSettings.DATASOURCE, dataSource);
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "create-drop");
        configuration.getProperties().put(SeqgenHibernate.TABLE, seqgenTable);
        configuration.getProperties().putAll(settings);
        return configuration.buildSessionFactory();
    }

    /** Runs the work in a transaction of its own and commits it. */
    static void inTransaction(SessionFactory sessionFactory, Consumer<Session> work) {
        try (Session session = sessionFactory.openSession()) {
            Transaction transaction = session.beginTransaction();
            try {
                work.accept(session);
                transaction.commit();
            } catch (RuntimeException | Error e) {
                if (transaction.isActive()) {
                    transaction.rollback();
                }
                throw e;
            }
        }
    }

    /** Runs the query in a transaction of its own and returns its result. */
    static <T> T query(SessionFactory sessionFactory, Function<Session, T> query) {
        return sessionFactory.fromTransaction(query);
    }

    /** The row's next_value, read directly. */
    static long nextValue(DataSource dataSource, String seqgenTable, String sequence) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT next_value FROM " + seqgenTable + " WHERE name = ?")) {
            select.setString(1, sequence);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    throw new AssertionError("no row for sequence '" + sequence + "' in " + seqgenTable);
                }
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The ids in an entity table, sorted. */
    static long[] ids(DataSource dataSource, String table) {
        try (Connection connection = dataSource.getConnection();
                Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
            List<Long> ids = new ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
            return ids.stream().mapToLong(Long::longValue).toArray();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Persists ten {@link AdoptedOrder}s from each of eight threads, each in its own transaction; returns their ids. */
    static List<Long> persistAdoptedOrdersFromEightThreads(SessionFactory sessionFactory) throws Exception {
        List<Long> ids = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<List<Long>>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(pool.submit(() -> {
                    List<Long> mine = new ArrayList<>();
                    for (int i = 0; i < 10; i++) {
                        AdoptedOrder order = new AdoptedOrder();
                        inTransaction(sessionFactory, session -> session.persist(order));
                        mine.add(order.id());
                    }
                    return mine;
                }));
            }
            for (java.util.concurrent.Future<List<Long>> future : futures) {
                ids.addAll(future.get());
            }
        } finally {
            pool.shutdownNow();
        }
        return ids;
    }

    /** Inserts the rows {@code id = from .. to} in one batch, as an application's existing data. */
    static void insertIds(DataSource dataSource, String table, int from, int to) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
            connection.setAutoCommit(false);
            for (int id = from; id <= to; id++) {
                insert.setLong(1, id);
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
    }

    /** Inserts each row's values, in order, with {@code sql}, and commits them, as an application's existing data. */
    static void insert(DataSource dataSource, String sql, Object[]... rows) throws SQLException {
        try (Connection connection = dataSource.getConnection(); PreparedStatement insert = connection.prepareStatement(
                sql)) {
            for (Object[] row : rows) {
                for (int i = 0; i < row.length; i++) {
                    insert.setObject(i + 1, row[i]);
                }
                insert.executeUpdate();
            }
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }
    }

    /** Every message of the cause chain, for errors that Hibernate wraps. */
    static String messages(Throwable thrown) {
        StringBuilder messages = new StringBuilder();
        for (Throwable cause = thrown; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            messages.append(cause.getClass().getName()).append(": ").append(cause.getMessage()).append('\n');
        }
        return messages.toString();
    }

    /** The innermost cause, for errors that Hibernate wraps. */
    static Throwable rootCause(Throwable thrown) {
        Throwable cause = thrown;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause;
    }

    /** Prefixes every entity table name. */
    static final class PrefixedTables extends PhysicalNamingStrategyStandardImpl {

        private static final long serialVersionUID = 1L;

        private final String prefix;

        PrefixedTables(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Identifier toPhysicalTableName(Identifier logicalName, JdbcEnvironment context) {
            return Identifier.toIdentifier(prefix + logicalName.getText(), logicalName.isQuoted());
        }
    }
}
