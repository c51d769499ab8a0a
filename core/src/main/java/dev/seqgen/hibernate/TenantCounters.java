package dev.seqgen.hibernate;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.Ticker;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.jspecify.annotations.Nullable;

/**
 * The counters of SYNC sequences that live with each tenant's data (a schema or database per tenant, seqgen's table
 * not qualified by a schema): a registry per tenant over a JDBC store of the tenant's connections. Why a registry per
 * tenant, why it is dropped and not closed, and its gauge: docs/design.md, "Tenant counters".
 */
final class TenantCounters {

    private final MultiTenantConnectionProvider<Object> tenants;
    /** seqgen's table as the application's store names it, unqualified: each tenant's connection finds its own. */
    private final String table;
    private final Map<Object, SequenceRegistry> registries = new ConcurrentHashMap<>();
    private final Map<Object, JdbcSequenceStore> stores = new ConcurrentHashMap<>();
    /** The sequences the tenants' registries count, by name: what {@link #dropIdle()} looks for in each. */
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    /** The application registry's idle timeout of series, which each tenant's registry has too. */
    private final Duration idleTimeout;
    private final Ticker ticker;
    /** The application registry's metrics, where the gauge of each sequence's series goes. */
    private final SequenceMetricsTrackerFactory metrics;
    /** When {@link #dropIdle()} last ran, on {@link #ticker}; guarded by {@code this}. */
    private long lastDrop;

    TenantCounters(MultiTenantConnectionProvider<Object> tenants, String table, SequenceRegistry application) {
        this.tenants = tenants;
        this.table = table;
        this.idleTimeout = application.seriesIdleTimeout();
        this.ticker = application.ticker();
        this.metrics = application.metrics();
        this.lastDrop = ticker.read();
    }

    /**
     * The registry of one tenant's counters, made at its first use; no I/O.
     *
     * @param tenant the session's tenant identifier
     * @param name the sequence whose series it will count
     * @return the registry over the tenant's own table
     */
    SequenceRegistry registryOf(Object tenant, String name) {
        if (names.add(name)) {
            publishSeriesGauge(name);
        }
        return registries.computeIfAbsent(tenant, key -> SequenceRegistry.builder(storeOf(key))
                .executor(Runnable::run).ticker(ticker).seriesIdleTimeout(idleTimeout).build());
    }

    /** Publishes the gauge of the series of a sequence open in the tenants' registries; a failure fails no value. */
    private void publishSeriesGauge(String name) {
        try {
            metrics.series(name, () -> openSeriesCount(name));
        } catch (RuntimeException e) {
            System.getLogger(TenantCounters.class.getName()).log(System.Logger.Level.WARNING, "seqgen: the gauge of"
                    + " the series of sequence '" + name + "' counted in tenants' tables could not be registered: "
                    + e);
        }
    }

    /**
     * How many series of a sequence are open in the tenants' registries now; no I/O.
     *
     * @param name the sequence name
     * @return the number of series open, over every tenant
     */
    int openSeriesCount(String name) {
        int count = 0;
        for (SequenceRegistry registry : registries.values()) {
            count += registry.openSeries(name).size();
        }
        return count;
    }

    /**
     * The tenants' registries held now (those holding series, and those not dropped yet), for listings; no I/O.
     *
     * @return a snapshot
     */
    List<SequenceRegistry> registries() {
        return List.copyOf(registries.values());
    }

    /**
     * The registry of one tenant's counters if it was made, without a lock; null before its first use, and once
     * dropped.
     *
     * @param tenant the session's tenant identifier
     * @return the registry, or null
     */
    @Nullable SequenceRegistry registryIfMade(Object tenant) {
        return registries.get(tenant);
    }

    /**
     * Drops the registries that hold no series, with their stores, if an idle timeout passed since the last time
     * (see the class comment); called at an opening of a series, by the service, which serialises its openings.
     *
     * @return how many registries were dropped
     */
    synchronized int dropIdleDue() {
        if (idleTimeout.isZero() || ticker.read() - lastDrop < idleTimeout.toNanos()) {
            return 0;
        }
        return dropIdle();
    }

    /**
     * Drops the registries that hold no series now, with their stores (see the class comment). No I/O.
     *
     * @return how many registries were dropped
     */
    synchronized int dropIdle() {
        lastDrop = ticker.read();
        int dropped = 0;
        for (Map.Entry<Object, SequenceRegistry> entry : registries.entrySet()) {
            SequenceRegistry registry = entry.getValue();
            if (names.stream().allMatch(name -> registry.openSeries(name).isEmpty())
                    && registries.remove(entry.getKey(), registry)) {
                stores.remove(entry.getKey());
                dropped++;
            }
        }
        return dropped;
    }

    /**
     * The tenant's store: seqgen's table of the tenant's schema or database, never created by seqgen (a tenant's
     * tables are its migrations'). Its database is detected on a connection of the tenant's, once.
     */
    JdbcSequenceStore storeOf(Object tenant) {
        return stores.computeIfAbsent(tenant, key -> JdbcSequenceStore.builder(tenantDataSource(tenants, key))
                .table(table).createTable(false).build());
    }

    /** @return the table the tenants' counters are in, as each tenant's connection names it */
    String table() {
        return table;
    }

    /**
     * Why a tenant's table cannot be read, asked after a failure to tell a missing (or unreadable) table from
     * another error: the database's error, or null when the table reads.
     *
     * @param tenant the tenant
     * @param row the row to read
     * @return the error, or null
     */
    @Nullable RuntimeException unreadable(Object tenant, String row) {
        try {
            storeOf(tenant).nextValue(row);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** Closes the tenants' registries, then their stores (a registry dropped before has nothing left to close). */
    void close() {
        registries.values().forEach(SequenceRegistry::close);
        registries.clear();
        stores.values().forEach(JdbcSequenceStore::close);
        stores.clear();
    }

    /**
     * A tenant's connections as a {@code DataSource}, for a store: a connection from the
     * {@code MultiTenantConnectionProvider} for the tenant, whose {@code close()} gives it back to the provider.
     */
    private static DataSource tenantDataSource(MultiTenantConnectionProvider<Object> tenants, Object tenant) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getConnection" -> {
                        if (args != null) {
                            throw new SQLFeatureNotSupportedException("a tenant's connections come from its provider");
                        }
                        yield tenantConnection(tenants, tenant);
                    }
                    case "getLogWriter", "setLogWriter", "setLoginTimeout" -> null;
                    case "getLoginTimeout" -> 0;
                    case "isWrapperFor" -> false;
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "connections of tenant '" + tenant + "'";
                    case "unwrap" -> throw new SQLException("not a wrapper");
                    default -> throw new SQLFeatureNotSupportedException();
                });
    }

    private static Connection tenantConnection(MultiTenantConnectionProvider<Object> tenants, Object tenant)
            throws SQLException {
        Connection connection = tenants.getConnection(tenant);
        AtomicBoolean released = new AtomicBoolean();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        if (released.compareAndSet(false, true)) {
                            tenants.releaseConnection(tenant, connection);
                        }
                        return null;
                    }
                    if (method.getName().equals("isClosed") && released.get()) {
                        return true;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
