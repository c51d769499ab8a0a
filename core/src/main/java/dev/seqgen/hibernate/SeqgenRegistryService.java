package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import org.hibernate.HibernateException;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.service.Service;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.hibernate.service.spi.Stoppable;

import java.util.Map;
import javax.sql.DataSource;

/**
 * The Hibernate service that gives every seqgen id generator of a service registry its
 * {@link SequenceRegistry}: the one in {@link SeqgenHibernate#REGISTRY}, or one built over the session
 * factory's {@code DataSource} and closed with the service registry.
 *
 * <pre>
 * Design: why a service
 *
 * A registry seqgen builds must exist before the first insert and be closed when the session factory
 * closes, so that unused values are given back and the refill threads stop. Generators are created while
 * the session factory is built, but see only the (standard) service registry, never the factory. A service
 * of that registry is created on first lookup (by the first seqgen generator, at startup), shared by all
 * generators built from the registry, and stopped when it is destroyed, which the usual bootstraps
 * (Configuration, JPA, Spring) do when the session factory closes. Its stop() runs before the
 * ConnectionProvider's, because the service looked the provider up while starting.
 * </pre>
 */
final class SeqgenRegistryService implements Service, Stoppable {

    private static final long serialVersionUID = 1L;

    private final transient Map<String, Object> settings;
    private final transient ServiceRegistryImplementor serviceRegistry;
    /** The registry, resolved on first use; guarded by {@code this}. */
    private transient SequenceRegistry registry;
    /** The registry and connection seqgen built, to be closed on stop; guarded by {@code this}. */
    private transient SequenceRegistry ownedRegistry;
    private transient JdbcSequenceStore ownedStore;

    SeqgenRegistryService(Map<String, Object> settings, ServiceRegistryImplementor serviceRegistry) {
        this.settings = settings;
        this.serviceRegistry = serviceRegistry;
    }

    /**
     * Returns the registry for this service registry, building it on first use when none was given.
     *
     * @return the registry
     * @throws SequenceConfigurationException if a setting is wrong, or the registry is required and missing
     * @throws HibernateException if seqgen must build a registry and the connection provider has no
     *     DataSource, or no connection could be had
     */
    synchronized SequenceRegistry registry() {
        if (registry == null) {
            registry = resolve();
        }
        return registry;
    }

    private SequenceRegistry resolve() {
        Object given = settings.get(SeqgenHibernate.REGISTRY);
        if (given instanceof SequenceRegistry sequenceRegistry) {
            return sequenceRegistry;
        }
        if (given != null) {
            throw new SequenceConfigurationException(SeqgenHibernate.REGISTRY, given.getClass().getName(),
                    "a dev.seqgen.SequenceRegistry object (a string cannot name one)");
        }
        Object required = settings.get(SeqgenHibernate.REGISTRY_REQUIRED);
        if (required != null && Boolean.parseBoolean(required.toString().trim())) {
            throw new SequenceConfigurationException(SeqgenHibernate.REGISTRY, null, "a dev.seqgen.SequenceRegistry"
                    + " object, which is required because " + SeqgenHibernate.REGISTRY_REQUIRED + " is true: the"
                    + " framework that sets it (the seqgen Spring Boot starter) did not provide its registry to"
                    + " this session factory");
        }
        PlainSettings plain = PlainSettings.from(settings);
        // A dedicated connection: inserting threads hold their session's pooled connection while the generator
        // runs, so reservations must never wait for the same pool (see JdbcSequenceStore).
        JdbcSequenceStore.Builder storeBuilder = JdbcSequenceStore.builder(dataSource()).dedicatedConnection(true)
                .createTable(plain.createTable);
        try {
            storeBuilder.table(plain.table);
        } catch (SequenceConfigurationException e) {
            throw new SequenceConfigurationException(SeqgenHibernate.TABLE, e.value(), e.allowed());
        }
        ownedStore = storeBuilder.build();
        try {
            JdbcSequenceStore store = ownedStore;
            SequenceRegistry.Builder builder = SequenceRegistry.builder(store).defaults(plain.defaults);
            plain.perSequence.forEach(builder::sequence);
            ownedRegistry = builder.build();
            return ownedRegistry;
        } catch (RuntimeException e) {
            ownedStore.close();
            ownedStore = null;
            throw e;
        }
    }

    private DataSource dataSource() {
        ConnectionProvider provider = serviceRegistry.getService(ConnectionProvider.class);
        if (provider == null || !provider.isUnwrappableAs(DataSource.class)) {
            throw new HibernateException("seqgen reserves values in transactions of its own and needs a DataSource"
                    + " for them, but the connection provider "
                    + (provider == null ? "(none: multi-tenant?)" : provider.getClass().getName())
                    + " does not expose one: give Hibernate a DataSource (jakarta.persistence.nonJtaDataSource or"
                    + " hibernate.connection.datasource), or set " + SeqgenHibernate.REGISTRY
                    + " to a SequenceRegistry built over one");
        }
        return provider.unwrap(DataSource.class);
    }

    /** Closes the registry seqgen built (giving back unused values), then returns its connection. */
    @Override
    public synchronized void stop() {
        if (ownedRegistry != null) {
            try {
                ownedRegistry.close();
            } finally {
                ownedStore.close();
                ownedRegistry = null;
                ownedStore = null;
                registry = null;
            }
        }
    }
}
