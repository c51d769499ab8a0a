package dev.seqgen.hibernate;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate settings seqgen reads, for {@code hibernate.properties}, {@code persistence.xml},
 * {@code Configuration.getProperties()}, JPA property maps or Spring's {@code HibernatePropertiesCustomizer}.
 *
 * <p>Where the {@link dev.seqgen.SequenceRegistry} comes from:
 * <ul>
 *   <li>{@link #REGISTRY} holds one (Spring puts its registry there): every seqgen id of the session factory
 *       uses it, and seqgen neither builds nor closes a registry.</li>
 *   <li>Otherwise, unless {@link #REGISTRY_REQUIRED} is true, seqgen builds one registry for the Hibernate
 *       service registry (one per session factory in the usual bootstraps) over the session factory's
 *       {@code DataSource}, configured by {@link #TABLE}, {@link #SCHEMA_INITIALIZE}, {@link #DEFAULTS_PREFIX} and
 *       {@link #SEQUENCES_PREFIX}, and closes it when the session factory closes.</li>
 * </ul>
 */
public final class SeqgenHibernate {

    /**
     * Setting holding the {@link dev.seqgen.SequenceRegistry} object every seqgen id of the session factory
     * uses. Only an object can be given, not a string.
     */
    public static final String REGISTRY = "seqgen.hibernate.registry";

    /**
     * Setting ({@code true}/{@code false}, default false): whether {@link #REGISTRY} must be given. When
     * true and it is missing, building the session factory fails instead of seqgen building a registry of
     * its own; frameworks that always provide the registry set it so that a wiring mistake shows at startup.
     */
    public static final String REGISTRY_REQUIRED = "seqgen.hibernate.registry-required";

    /**
     * Setting: the table of the sequence rows, optionally {@code schema.table}, when seqgen builds its own
     * registry. Default {@value dev.seqgen.jdbc.JdbcSequenceStore#DEFAULT_TABLE}.
     */
    public static final String TABLE = "seqgen.table";

    /**
     * Setting: the prefix of the database sequences of the sequences whose {@code kind} is
     * {@code native-sequence}, when seqgen builds its own registry (sequence {@code orders} is database sequence
     * {@code seqgen_orders} by default); as Spring Boot's property of the same name.
     */
    public static final String SEQUENCE_PREFIX = "seqgen.jdbc.sequence-prefix";

    /**
     * Setting ({@code always}/{@code never}, default {@code always}) that decides whether seqgen's tables are created:
     * with {@code always} by the registry seqgen builds when missing, and by Hibernate's schema tools with the same
     * statements; with {@code never} by neither (migrations create them).
     */
    public static final String SCHEMA_INITIALIZE = "seqgen.schema.initialize";

    /**
     * Setting: how long a series may go unused before seqgen's own registry releases it
     * ({@link dev.seqgen.SequenceRegistry.Builder#seriesIdleTimeout}), as {@code 10m} or {@code PT10M}, or a
     * {@link java.time.Duration}; {@code 0} never releases. Default 10 minutes. A given {@link #REGISTRY} has its
     * own; as Spring Boot's property of the same name.
     */
    public static final String SERIES_IDLE_TIMEOUT = "seqgen.series.idle-timeout";

    /**
     * Prefix of the settings naming series to open at start-up, followed by a sequence the entities number in series;
     * the value is the keys, comma-separated (or a collection), parts in the series' order, the tenant's first:
     * {@code seqgen.series.warm-up.invoices=acme/2026,globex/2026}. Once the session factory is built, each series is
     * opened as its first entity would open it and its first block waited for within the acquire timeout; an unknown
     * sequence or key fails the start-up naming the setting. Ignored when {@link #REGISTRY_REQUIRED} is true (the
     * framework warms up itself, through {@link #warmUpSeries}).
     */
    public static final String SERIES_WARM_UP_PREFIX = "seqgen.series.warm-up.";

    /**
     * Prefix of the default sequence settings when seqgen builds its own registry, followed by the
     * {@link dev.seqgen.Setting#key() key} of a {@link dev.seqgen.Setting} (values as text, as
     * {@link dev.seqgen.Setting#apply} reads them); for example {@code seqgen.defaults.block-size=500} or
     * {@code seqgen.defaults.acquire-timeout=2s}.
     */
    public static final String DEFAULTS_PREFIX = "seqgen.defaults.";

    /**
     * Prefix of one sequence's settings when seqgen builds its own registry, followed by the sequence name
     * and one of the keys of {@link #DEFAULTS_PREFIX}; for example
     * {@code seqgen.sequences.invoices.strategy=sync}. They override the attributes of
     * {@link SeqgenGenerator} as described there.
     */
    public static final String SEQUENCES_PREFIX = "seqgen.sequences.";

    private SeqgenHibernate() {
    }

    /**
     * Opens the sequences of the session factory's generators not open yet, each as its first value would, and waits
     * until each holds its first block (as {@link dev.seqgen.SequenceRegistry#warmUp(java.util.Collection, Duration)}).
     *
     * @param sessionFactory the session factory
     * @param timeout the longest the call waits for the first blocks, for all the sequences together
     * @return the names of the sequences opened; empty if the session factory has no seqgen generator
     * @throws dev.seqgen.SequenceUnavailableException naming a sequence whose first block did not come in time (it
     *     is open, and its reservation goes on in the background)
     * @throws org.hibernate.MappingException naming the entity and sequence if a sequence could not be opened
     */
    public static List<String> warmUp(SessionFactory sessionFactory, Duration timeout) {
        SeqgenRegistryService service = service(sessionFactory);
        return service == null ? List.of() : service.warmUp(timeout);
    }

    /**
     * Returns the sequences the session factory's generators number in series, with their settings, whether or not
     * a series is open (nothing else shows a sequence numbered only in series). For listings; no I/O.
     *
     * @param sessionFactory the session factory
     * @return the sequences' settings, by name; empty if none of its generators numbers in series
     */
    public static SortedMap<String, SequenceSettings> seriesSequences(SessionFactory sessionFactory) {
        SeqgenRegistryService service = service(sessionFactory);
        return service == null ? Collections.emptySortedMap() : service.seriesSequences();
    }

    /**
     * Returns the registries in which the session factory counts {@code SYNC} series in each tenant's own schema or
     * database (docs/multi-tenancy.md), one per tenant whose series are open or were recently. For listings; a caller
     * must not close them. No I/O.
     *
     * @param sessionFactory the session factory
     * @return a snapshot of the registries; empty where no series counts in a tenant's own table
     */
    public static List<SequenceRegistry> tenantRegistries(SessionFactory sessionFactory) {
        SeqgenRegistryService service = service(sessionFactory);
        return service == null ? List.of() : service.tenantRegistries();
    }

    private static @Nullable SeqgenRegistryService service(SessionFactory sessionFactory) {
        return sessionFactory.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .getService(SeqgenRegistryService.class);
    }

    /**
     * Opens known series of a sequence the session factory's entities number in series, each as its first entity
     * would (above the numbers its rows already hold), and waits until each holds its first block: what
     * {@link #SERIES_WARM_UP_PREFIX} does at start-up.
     *
     * @param sessionFactory the session factory
     * @param sequence the sequence name
     * @param keys the series keys, as {@link #SERIES_WARM_UP_PREFIX} describes them ({@code acme/2026})
     * @param timeout the longest the call waits for the first blocks, for all the series together
     * @return false if no seqgen generator of the session factory numbers the sequence (nothing is opened)
     * @throws dev.seqgen.SequenceConfigurationException naming {@code seqgen.series.warm-up.<sequence>} and the key,
     *     if a key is not one of the sequence's series (not valid, another number of parts, a part that is not a
     *     value of its attribute), or the entities number the sequence in one series only; nothing is opened then
     * @throws dev.seqgen.SequenceUnavailableException naming a series whose first block did not come in time (it is
     *     open, and its reservation goes on in the background)
     * @throws org.hibernate.MappingException naming the entity and sequence if a series could not be opened (a
     *     tenant's table that cannot be read)
     */
    public static boolean warmUpSeries(SessionFactory sessionFactory, String sequence, Collection<String> keys,
            Duration timeout) {
        SessionFactoryImplementor factory = sessionFactory.unwrap(SessionFactoryImplementor.class);
        SeqgenRegistryService service = factory.getServiceRegistry().getService(SeqgenRegistryService.class);
        return service != null && service.warmUpSeries(sequence, keys, SeqgenRegistryService.tenantOf(factory),
                timeout);
    }
}
