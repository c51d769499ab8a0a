package dev.seqgen.jmh.bulk;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import jakarta.persistence.Table;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.hibernate.stat.Statistics;

/**
 * One trial of the bulk-insert benchmark: a HikariCP pool, a plain Hibernate session factory (no Spring) over
 * it with JDBC batching on, and the one entity class of the id kind, in tables and sequences whose names end in
 * a suffix of this trial's own, so that runs sharing a database do not collide. Hibernate creates them when
 * the session factory is built and drops them when it is closed.
 */
public final class Fixture implements AutoCloseable {

    /** Hibernate's JDBC batch size. */
    public static final int BATCH_SIZE = 50;

    private final IdKind kind;
    private final String suffix;
    private final HikariDataSource pool;
    private final AutoCloseable kindResources;
    private final SessionFactory sessionFactory;
    private final String table;
    private long inserted;
    private long counter;

    /**
     * Builds the pool and the session factory, which creates the tables.
     *
     * @param database where the tables go
     * @param kind the id kind, and so the entity class
     */
    public Fixture(BulkDatabase database, IdKind kind) {
        this.kind = kind;
        this.suffix = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36,
                36L * 36 * 36 * 36 * 36 * 36 * 36), 36).toLowerCase(Locale.ROOT);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url(suffix));
        config.setUsername(database.user());
        config.setPassword(database.password());
        config.setPoolName("bulk-insert-" + suffix);
        // One connection per benchmark thread (a session holds one for its transaction), one for seqgen's
        // dedicated connection, one to spare.
        config.setMaximumPoolSize(4);
        this.pool = new HikariDataSource(config);
        this.table = kind.entityClass.getAnnotation(Table.class).name() + "_" + suffix;

        Map<String, Object> settings = new HashMap<>();
        AutoCloseable resources = null;
        SessionFactory built = null;
        try {
            resources = kind.configure(pool, suffix, settings);
            HibernatePersistenceConfiguration configuration = new HibernatePersistenceConfiguration("bulk-insert")
                    .managedClass(kind.entityClass)
                    .property(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, pool)
                    .property(AvailableSettings.STATEMENT_BATCH_SIZE, BATCH_SIZE)
                    .property(AvailableSettings.ORDER_INSERTS, true)
                    .property(AvailableSettings.HBM2DDL_AUTO, "create-drop")
                    .property(AvailableSettings.PHYSICAL_NAMING_STRATEGY, new Suffixed(suffix))
                    // Statistics count the statements Hibernate prepares: one per batch when inserts batch,
                    // one per entity when they do not. Reported at the end of each trial.
                    .property(AvailableSettings.GENERATE_STATISTICS, true);
            settings.forEach(configuration::property);
            built = configuration.createEntityManagerFactory();
        } catch (RuntimeException e) {
            closeResources(resources);
            pool.close();
            throw e;
        }
        this.kindResources = resources;
        this.sessionFactory = built;
    }

    /**
     * Persists {@code count} new entities in one transaction, flushing and clearing the session every
     * {@link #BATCH_SIZE} entities as a bulk load does, and commits.
     *
     * @param count how many entities
     * @return the id of the last one
     */
    public Object insert(int count) {
        Instant now = Instant.now();
        Payload last = null;
        try (Session session = sessionFactory.openSession()) {
            Transaction transaction = session.beginTransaction();
            try {
                for (int i = 0; i < count; i++) {
                    Payload entity = kind.newEntity();
                    entity.fill(counter++, now);
                    session.persist(entity);
                    last = entity;
                    if ((i + 1) % BATCH_SIZE == 0) {
                        session.flush();
                        session.clear();
                    }
                }
                transaction.commit();
            } catch (RuntimeException e) {
                if (transaction.isActive()) {
                    transaction.rollback();
                }
                throw e;
            }
        }
        inserted += count;
        return last == null ? null : last.id();
    }

    /** Empties the table between iterations, so that every iteration inserts into a table of the same size. */
    public void truncate() {
        execute(pool, "TRUNCATE TABLE " + table);
    }

    /**
     * Returns the row count of the table, for the smoke test.
     *
     * @return how many rows the table holds
     */
    public long rows() {
        try (Session session = sessionFactory.openSession()) {
            return session.createSelectionQuery("select count(*) from " + kind.entityClass.getSimpleName(), Long.class)
                    .getSingleResult();
        }
    }

    /**
     * Returns what Hibernate did so far, for the benchmark log: how many statements it prepared per entity.
     *
     * @return a short description
     */
    public String activity() {
        Statistics statistics = sessionFactory.getStatistics();
        long prepared = statistics.getPrepareStatementCount();
        return String.format(Locale.ROOT, "%s: %d entities, %d statements prepared (%.1f per 1000 entities)", kind,
                inserted, prepared, inserted == 0 ? 0.0 : prepared * 1000.0 / inserted);
    }

    /**
     * Closes seqgen's registry if any (it gives its unused values back to its table), then the session factory
     * (which drops the tables, seqgen's among them), then the pool.
     */
    @Override
    public void close() {
        try {
            closeResources(kindResources);
        } finally {
            try {
                sessionFactory.close();
            } finally {
                pool.close();
            }
        }
    }

    static void execute(DataSource dataSource, String sql) {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    private static void closeResources(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not clean up after the bulk-insert trial: " + e.getMessage(), e);
        }
    }

    /** Appends the trial's suffix to every table and sequence name. */
    private static final class Suffixed extends PhysicalNamingStrategyStandardImpl {

        private final String suffix;

        Suffixed(String suffix) {
            this.suffix = suffix;
        }

        @Override
        public Identifier toPhysicalTableName(Identifier name, JdbcEnvironment environment) {
            return withSuffix(name);
        }

        @Override
        public Identifier toPhysicalSequenceName(Identifier name, JdbcEnvironment environment) {
            return withSuffix(name);
        }

        private Identifier withSuffix(Identifier name) {
            return name == null ? null : Identifier.toIdentifier(name.getText() + "_" + suffix, name.isQuoted());
        }
    }
}
