package dev.seqgen.hibernate;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
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

/** SYNC counters in each tenant's schema: a registry per tenant. See docs/design.md#tenant-counters. */
final class TenantCounters {

    private final MultiTenantConnectionProvider<Object> tenants;
    /** Unqualified: each tenant's connection finds its own. */
    private final String table;
    private final Map<Object, SequenceRegistry> registries = new ConcurrentHashMap<>();
    private final Map<Object, JdbcSequenceStore> stores = new ConcurrentHashMap<>();
    /** The sequences the tenants' registries count. */
    private final Set<String> names = ConcurrentHashMap.newKeySet();
    /** Gives the tenants' registries its ticker, idle timeout and metrics. */
    private final SequenceRegistry application;
    /** Guarded by this. */
    private long lastDrop;

    TenantCounters(MultiTenantConnectionProvider<Object> tenants, String table, SequenceRegistry application) {
        this.tenants = tenants;
        this.table = table;
        this.application = application;
        this.lastDrop = application.ticker().read();
    }

    /** The registry of one tenant's counters of sequence {@code name}, made at its first use; no I/O. */
    SequenceRegistry registryOf(Object tenant, String name) {
        if (names.add(name)) {
            try {
                application.metrics().series(name,
                        () -> registries.values().stream().mapToInt(r -> r.openSeries(name).size()).sum());
            } catch (RuntimeException e) { // fails no value
                System.getLogger(TenantCounters.class.getName()).log(System.Logger.Level.WARNING, "seqgen: the gauge"
                        + " of the series of sequence '" + name + "' counted in tenants' tables could not be"
                        + " registered: " + e);
            }
        }
        return registries.computeIfAbsent(tenant, key -> SequenceRegistry.builder(storeOf(key))
                .executor(Runnable::run).ticker(application.ticker())
                .seriesIdleTimeout(application.seriesIdleTimeout()).build());
    }

    /** A snapshot of the tenants' registries not dropped yet; no I/O. */
    List<SequenceRegistry> registries() {
        return List.copyOf(registries.values());
    }

    /** The tenant's registry, without a lock; null before its first use and once dropped. */
    @Nullable SequenceRegistry registryIfMade(Object tenant) {
        return registries.get(tenant);
    }

    /** Drops the registries holding no series, with their stores, once an idle timeout passed. */
    synchronized void dropIdleDue() {
        Duration idleTimeout = application.seriesIdleTimeout();
        if (idleTimeout.isZero() || application.ticker().read() - lastDrop < idleTimeout.toNanos()) {
            return;
        }
        lastDrop = application.ticker().read();
        registries.forEach((tenant, registry) -> {
            if (names.stream().allMatch(name -> registry.openSeries(name).isEmpty())
                    && registries.remove(tenant, registry)) {
                stores.remove(tenant);
            }
        });
    }

    /** The tenant's store; never creates the table (a tenant's tables are its migrations'). */
    JdbcSequenceStore storeOf(Object tenant) {
        return stores.computeIfAbsent(tenant, key -> JdbcSequenceStore.builder(tenantDataSource(key))
                .table(table).createTable(false).build());
    }

    String table() {
        return table;
    }

    /** Why a tenant's table cannot be read (asked after a failure), or null when it reads. */
    @Nullable RuntimeException unreadable(Object tenant, String row) {
        try {
            storeOf(tenant).nextValue(row);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** Closes the tenants' registries, then their stores (a dropped registry has nothing left to close). */
    void close() {
        registries.values().forEach(SequenceRegistry::close);
        registries.clear();
        stores.values().forEach(JdbcSequenceStore::close);
        stores.clear();
    }

    /** A tenant's connections as a {@code DataSource}; a connection's {@code close()} gives it back. */
    private DataSource tenantDataSource(Object tenant) {
        return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getConnection" -> {
                        if (args != null) {
                            throw new SQLFeatureNotSupportedException("a tenant's connections come from its provider");
                        }
                        yield tenantConnection(tenant);
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

    private Connection tenantConnection(Object tenant) throws SQLException {
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
