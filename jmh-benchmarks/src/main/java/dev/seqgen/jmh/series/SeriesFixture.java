package dev.seqgen.jmh.series;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jmh.bulk.BulkDatabase;
import dev.seqgen.jmh.table.CommitLatencyDataSource;
import jakarta.persistence.Table;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.naming.PhysicalNamingStrategyStandardImpl;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.jdbc.env.spi.JdbcEnvironment;
import org.hibernate.jpa.HibernatePersistenceConfiguration;

/**
 * One trial of the number-series benchmark: a HikariCP pool whose commits take the injected latency with their locks
 * held ({@link CommitLatencyDataSource}), a plain Hibernate session factory over it with the trial's invoice entity
 * (tables named with a suffix of the trial's own, created and dropped by Hibernate), and a seqgen registry over a
 * {@link JdbcSequenceStore} in the same database, handed to Hibernate. Every tenant has taken one number before the
 * clock starts, so that the measured transactions find their series' row created and adopted.
 */
public final class SeriesFixture implements AutoCloseable {

    private static final SequenceSettings SYNC = SequenceSettings.builder().strategy(Strategy.SYNC).build();
    /** The invoices' ids, through Hibernate ({@code series_bench_ids}) or JDBC: ASYNC_BATCH in blocks of 1000. */
    private static final SequenceSettings IDS = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH)
            .blockSize(1000).build();

    private final Counter counter;
    private final Api api;
    private final int tenants;
    private final String[] tenantIds;
    private final HikariDataSource pool;
    private final CommitLatencyDataSource dataSource;
    private final JdbcSequenceStore store;
    private final SequenceRegistry registry;
    private final SessionFactory sessionFactory;
    private final String table;
    private final String insertSql;
    /** The ids of the JDBC transactions' invoices; null under Hibernate, whose generator takes them. */
    private final Sequence ids;

    /**
     * Builds the pool, the registry and the session factory (which creates the invoice table), then takes one number
     * for every tenant.
     *
     * @param database where the tables go
     * @param counter per-tenant series or one shared row
     * @param api Hibernate or the core API in a JDBC transaction
     * @param tenants how many tenants the transactions spread over, uniformly at random
     * @param threads the benchmark threads: the pool has a connection for each and four more (the store's own,
     *     spare)
     * @param latencyNanos what every commit waits, its locks held
     * @param poolAutoCommit the pool's connections in auto-commit mode (HikariCP's default: Hibernate turns it off
     *     and on around each transaction, a statement each way on MariaDB); false: off in the pool and Hibernate told
     *     so ({@code hibernate.connection.provider_disables_autocommit}), so a transaction sends only its own
     *     statements
     */
    public SeriesFixture(BulkDatabase database, Counter counter, Api api, int tenants, int threads, long latencyNanos,
            boolean poolAutoCommit) {
        if (tenants < 1) {
            throw new IllegalArgumentException("tenants=" + tenants + ": expected at least 1");
        }
        this.counter = counter;
        this.api = api;
        this.tenants = tenants;
        this.tenantIds = new String[tenants];
        for (int i = 0; i < tenants; i++) {
            tenantIds[i] = String.format(Locale.ROOT, "t%04d", i);
        }
        String suffix = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36 * 36,
                36L * 36 * 36 * 36 * 36 * 36 * 36), 36).toLowerCase(Locale.ROOT);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.url(suffix));
        config.setUsername(database.user());
        config.setPassword(database.password());
        config.setPoolName("series-" + suffix);
        config.setMaximumPoolSize(threads + 4);
        config.setAutoCommit(poolAutoCommit);
        this.pool = new HikariDataSource(config);
        this.dataSource = new CommitLatencyDataSource(pool, latencyNanos);
        this.table = counter.entityClass.getAnnotation(Table.class).name() + "_" + suffix;
        this.insertSql = "INSERT INTO " + table + " (id, tenant, amount_cents, number) VALUES (?, ?, ?, ?)";
        JdbcSequenceStore builtStore = null;
        SequenceRegistry builtRegistry = null;
        SessionFactory built = null;
        try {
            builtStore = JdbcSequenceStore.builder(dataSource).table("seqgen_series_" + suffix)
                    .dedicatedConnection(true).build();
            builtRegistry = SequenceRegistry.builder(builtStore).sequence("series_bench_ids", IDS).build();
            built = new HibernatePersistenceConfiguration("series")
                    .managedClass(counter.entityClass)
                    .property(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
                    .property(AvailableSettings.HBM2DDL_AUTO, "create-drop")
                    .property(AvailableSettings.CONNECTION_PROVIDER_DISABLES_AUTOCOMMIT, !poolAutoCommit)
                    .property(AvailableSettings.PHYSICAL_NAMING_STRATEGY, new Suffixed(suffix))
                    .property(SeqgenHibernate.REGISTRY, builtRegistry)
                    .property(SeqgenHibernate.REGISTRY_REQUIRED, "true")
                    .createEntityManagerFactory();
        } catch (RuntimeException e) {
            closeAll(null, builtRegistry, builtStore);
            throw e;
        }
        this.store = builtStore;
        this.registry = builtRegistry;
        this.sessionFactory = built;
        this.ids = api == Api.JDBC ? registry.sequence("series_bench_jdbc_ids", IDS) : null;
        try {
            everyTenantOnce(threads);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** One invoice per tenant, on {@code threads} threads: creates (and adopts) each series before the clock starts. */
    private void everyTenantOnce(int threads) {
        ExecutorService executor = Executors.newFixedThreadPool(Math.max(1, Math.min(threads, tenants)));
        try {
            List<Future<Long>> done = new ArrayList<>();
            for (int i = 0; i < tenants; i++) {
                int tenant = i;
                done.add(executor.submit(() -> invoice(tenant)));
            }
            for (Future<Long> future : done) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while every tenant took its first number", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a tenant's first number failed: " + e.getCause(), e.getCause());
        } finally {
            executor.shutdownNow();
        }
    }

    /**
     * Picks a tenant uniformly at random and runs one transaction of it that inserts one invoice with a gapless
     * number.
     *
     * @return the number
     */
    public long randomTenantInvoice() {
        return invoice(ThreadLocalRandom.current().nextInt(tenants));
    }

    /**
     * Runs one transaction of a tenant that inserts one invoice with a gapless number, and commits.
     *
     * @param tenant the tenant's index, from 0
     * @return the number
     */
    public long invoice(int tenant) {
        return api == Api.HIBERNATE ? hibernateInvoice(tenantIds[tenant]) : jdbcInvoice(tenantIds[tenant]);
    }

    private long hibernateInvoice(String tenant) {
        try (Session session = sessionFactory.withOptions().tenantIdentifier(tenant).openSession()) {
            Transaction transaction = session.beginTransaction();
            try {
                Invoice invoice = counter.constructor.get();
                invoice.amountCents(ThreadLocalRandom.current().nextLong(1, 1_000_000));
                session.persist(invoice);
                transaction.commit();
                return invoice.number();
            } catch (RuntimeException e) {
                if (transaction.isActive()) {
                    transaction.rollback();
                }
                throw e;
            }
        }
    }

    /** The sequence the core API takes a tenant's number from, named apart from Hibernate's. */
    private Sequence jdbcSequence(String tenant) {
        String name = counter.sequence + "_jdbc";
        return counter.perTenant ? registry.series(name, tenant, SYNC) : registry.sequence(name, SYNC);
    }

    private long jdbcInvoice(String tenant) {
        Sequence sequence = jdbcSequence(tenant);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(insertSql)) {
                long number = sequence.nextInTransaction(connection);
                insert.setLong(1, ids.next());
                insert.setString(2, tenant);
                insert.setLong(3, ThreadLocalRandom.current().nextLong(1, 1_000_000));
                insert.setLong(4, number);
                insert.executeUpdate();
                connection.commit();
                return number;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("tenant " + tenant + ": " + e.getMessage(), e);
        }
    }

    /**
     * Checks what the trial committed: in every series (each tenant's, or the one shared row) the numbers are 1 to n,
     * each once.
     *
     * @return a line for the benchmark log: invoices, series, commits
     * @throws IllegalStateException if a series has a gap or a number twice
     */
    public String checkGapless() {
        String sql = "SELECT " + (counter.perTenant ? "tenant" : "'all'")
                + ", COUNT(*), COUNT(DISTINCT number), MIN(number), MAX(number) FROM " + table
                + (counter.perTenant ? " GROUP BY tenant" : "");
        long invoices = 0;
        int series = 0;
        try (Connection connection = pool.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery(sql)) {
            while (rs.next()) {
                long count = rs.getLong(2);
                if (rs.getLong(3) != count || rs.getLong(4) != 1 || rs.getLong(5) != count) {
                    throw new IllegalStateException(String.format(Locale.ROOT,
                            "%s: series %s holds %d invoices, %d distinct numbers from %d to %d: not 1..n", counter,
                            rs.getString(1), count, rs.getLong(3), rs.getLong(4), rs.getLong(5)));
                }
                invoices += count;
                series++;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
        return String.format(Locale.ROOT, "%s %s over %d tenant(s): %d invoices in %d series, each numbered 1..n; "
                + "%d commits", counter, api, tenants, invoices, series, dataSource.commits());
    }

    /** Closes the registry (it gives its unused id values back), the session factory (drops the tables), the pool. */
    @Override
    public void close() {
        closeAll(sessionFactory, registry, store);
    }

    private void closeAll(SessionFactory factory, SequenceRegistry openRegistry, JdbcSequenceStore openStore) {
        try {
            if (openRegistry != null) {
                openRegistry.close();
            }
        } finally {
            try {
                if (factory != null) {
                    factory.close();
                }
            } finally {
                try {
                    if (openStore != null) {
                        openStore.close();
                        execute("DROP TABLE IF EXISTS " + openStore.table());
                    }
                } finally {
                    pool.close();
                }
            }
        }
    }

    private void execute(String sql) {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** Appends the trial's suffix to every table name. */
    private static final class Suffixed extends PhysicalNamingStrategyStandardImpl {

        private final String suffix;

        Suffixed(String suffix) {
            this.suffix = suffix;
        }

        @Override
        public Identifier toPhysicalTableName(Identifier name, JdbcEnvironment environment) {
            return name == null ? null : Identifier.toIdentifier(name.getText() + "_" + suffix, name.isQuoted());
        }
    }
}
