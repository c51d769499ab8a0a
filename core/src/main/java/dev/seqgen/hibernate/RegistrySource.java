package dev.seqgen.hibernate;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.hibernate.GeneratorSettings.PlainSettings;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.dialect.CockroachDialect;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.HSQLDialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.PostgreSQLDialect;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.jdbc.spi.JdbcServices;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The registry of one Hibernate service registry's generators: the one given, or one built over the session
 * factory's {@code DataSource} and closed with the service. No I/O until it is first asked for.
 */
final class RegistrySource {

    private final Map<String, Object> settings;
    private final ServiceRegistryImplementor serviceRegistry;
    // All guarded by this. The owned registry and stores are the ones seqgen built, closed on close().
    private @Nullable SequenceRegistry registry;
    private @Nullable SequenceRegistry ownedRegistry;
    private @Nullable JdbcSequenceStore ownedStore;
    private @Nullable NativeSequenceStore ownedNativeStore;
    private @Nullable PlainSettings plain;

    RegistrySource(Map<String, Object> settings, ServiceRegistryImplementor serviceRegistry) {
        this.settings = settings;
        this.serviceRegistry = serviceRegistry;
    }

    boolean initializesSchema() {
        return GeneratorSettings.initializes(settings.get(SeqgenHibernate.SCHEMA_INITIALIZE));
    }

    /** The series keys to warm up by sequence name ({@link SeqgenHibernate#SERIES_WARM_UP_PREFIX}), sorted. */
    Map<String, List<String>> seriesWarmUp() {
        Map<String, List<String>> series = new TreeMap<>();
        settings.forEach((name, value) -> {
            if (name.startsWith(SeqgenHibernate.SERIES_WARM_UP_PREFIX) && value != null) {
                Stream<?> keys = value instanceof Collection<?> listed ? listed.stream()
                        : Stream.of(value.toString().split(",", -1));
                series.put(name.substring(SeqgenHibernate.SERIES_WARM_UP_PREFIX.length()),
                        keys.map(key -> key.toString().trim()).toList());
            }
        });
        return series;
    }

    @Nullable ConnectionProvider connectionProvider() {
        return serviceRegistry.getService(ConnectionProvider.class);
    }

    @Nullable MultiTenantConnectionProvider<?> tenantConnections() {
        return serviceRegistry.getService(MultiTenantConnectionProvider.class);
    }

    String platform() {
        return platform(serviceRegistry.requireService(JdbcServices.class).getDialect());
    }

    /** The platform as seqgen's SPI names it (Spanner first: one extends PostgreSQLDialect). */
    static String platform(Dialect dialect) {
        String name = dialect.getClass().getSimpleName();
        return isSpanner(dialect) ? (name.contains("PostgreSQL") ? "spanner-postgresql" : "spanner")
                : dialect instanceof PostgreSQLDialect || dialect instanceof CockroachDialect ? "postgresql"
                : dialect instanceof MySQLDialect ? "mariadb"
                : dialect instanceof H2Dialect ? "h2"
                : dialect instanceof HSQLDialect ? "hsqldb"
                : name.replaceFirst("Dialect$", "").toLowerCase(Locale.ROOT);
    }

    /** Whether the dialect is a Cloud Spanner one, told by name: not every Hibernate 7 has both classes. */
    static boolean isSpanner(Dialect dialect) {
        return dialect.getClass().getSimpleName().startsWith("Spanner");
    }

    /** The registry, built at first use if none was given; fails naming a wrong setting or a missing DataSource. */
    synchronized SequenceRegistry registry() {
        if (registry == null) {
            registry = resolve();
        }
        return registry;
    }

    /** Whether Hibernate may access the database while booting (default true; false under Spring AOT). */
    boolean jdbcAtBoot() {
        return flag(AvailableSettings.ALLOW_METADATA_ON_BOOT, true);
    }

    private boolean flag(String name, boolean absent) {
        Object value = settings.get(name);
        return value == null ? absent : Boolean.parseBoolean(value.toString().trim());
    }

    /** The registry given through {@link SeqgenHibernate#REGISTRY}, or null; fails if wrong or required. No I/O. */
    @Nullable SequenceRegistry givenRegistry() {
        Object given = settings.get(SeqgenHibernate.REGISTRY);
        if (given instanceof SequenceRegistry sequenceRegistry) {
            return sequenceRegistry;
        }
        if (given != null) {
            throw new SequenceConfigurationException(SeqgenHibernate.REGISTRY, given.getClass().getName(),
                    "a dev.seqgen.SequenceRegistry object (a string cannot name one)");
        }
        if (jdbcAtBoot()) {
            requireNoRegistryRequired();
        }
        return null;
    }

    /** Whether {@link SeqgenHibernate#REGISTRY_REQUIRED} is true: a framework gives the registry and warms up. */
    boolean registryRequired() {
        return flag(SeqgenHibernate.REGISTRY_REQUIRED, false);
    }

    private void requireNoRegistryRequired() {
        if (registryRequired()) {
            throw new SequenceConfigurationException(SeqgenHibernate.REGISTRY, null, "a dev.seqgen.SequenceRegistry"
                    + " object, which is required because " + SeqgenHibernate.REGISTRY_REQUIRED + " is true: the"
                    + " framework that sets it (the seqgen Spring Boot starter) did not provide its registry to"
                    + " this session factory. With Spring Boot, give the application a store: a DataSource"
                    + " (spring-boot-starter-jdbc or -data-jpa and spring.datasource.url), a Spanner client, or a"
                    + " dev.seqgen.spi.SequenceStore bean");
        }
    }

    synchronized PlainSettings plainSettings() {
        if (plain == null) {
            plain = PlainSettings.from(settings);
        }
        return plain;
    }

    private SequenceRegistry resolve() {
        SequenceRegistry given = givenRegistry();
        if (given != null) {
            return given;
        }
        requireNoRegistryRequired();
        PlainSettings plain = plainSettings();
        ConnectionProvider provider = connectionProvider();
        if (provider == null || !provider.isUnwrappableAs(DataSource.class)) {
            throw new SeqgenMappingException("seqgen's Hibernate integration", "seqgen reserves values in"
                    + " transactions of its own and needs a DataSource for them, but the connection provider "
                    + (provider == null ? "(none: multi-tenant?)" : provider.getClass().getName())
                    + " does not expose one", "Give Hibernate a DataSource (jakarta.persistence.nonJtaDataSource or"
                    + " hibernate.connection.datasource), or set " + SeqgenHibernate.REGISTRY
                    + " to a SequenceRegistry built over one", null);
        }
        DataSource dataSource = provider.unwrap(DataSource.class);
        // A dedicated connection: inserting threads hold a pooled one while the generator runs.
        JdbcSequenceStore.Builder tableStore = JdbcSequenceStore.builder(dataSource).dedicatedConnection(true)
                .table(plain.table, SeqgenHibernate.TABLE).createTable(plain.createTable);
        boolean nativeKind = Stream.concat(Stream.of(plain.defaults), plain.perSequence.values().stream())
                .anyMatch(s -> s.kind() == CounterKind.NATIVE_SEQUENCE);
        NativeSequenceStore.Builder nativeStore = null;
        if (nativeKind || plain.sequencePrefix != null) { // not loaded on the start-up path otherwise
            nativeStore = NativeSequenceStore.builder(dataSource).dedicatedConnection(true);
            if (plain.sequencePrefix != null) {
                nativeStore.prefix(plain.sequencePrefix, SeqgenHibernate.SEQUENCE_PREFIX);
            }
        }
        ownedStore = tableStore.build();
        try {
            SequenceRegistry.Builder builder = SequenceRegistry.builder(ownedStore).defaults(plain.defaults);
            if (plain.seriesIdleTimeout != null) {
                builder.seriesIdleTimeout(plain.seriesIdleTimeout);
            }
            // Only for a sequence of that kind: it keeps a dedicated connection of its own.
            if (nativeKind) {
                ownedNativeStore = nativeStore.build();
                builder.store(ownedNativeStore);
            }
            plain.perSequence.forEach((name, settings) -> builder.sequence(name, settings, plain.sources.get(name)));
            ownedRegistry = builder.build();
            return ownedRegistry;
        } catch (RuntimeException e) {
            closeOwnedStores();
            throw e;
        }
    }

    synchronized void close() {
        if (ownedRegistry != null) {
            try {
                ownedRegistry.close();
            } finally {
                closeOwnedStores();
                ownedRegistry = null;
                registry = null;
            }
        }
    }

    private void closeOwnedStores() {
        try {
            if (ownedNativeStore != null) {
                ownedNativeStore.close();
            }
        } finally {
            ownedNativeStore = null;
            if (ownedStore != null) {
                ownedStore.close();
            }
            ownedStore = null;
        }
    }
}
