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
 * The Hibernate settings seqgen reads, and calls on a session factory's generators. The registry is the one
 * {@link #REGISTRY} holds (neither built nor closed by seqgen), or, unless {@link #REGISTRY_REQUIRED} is true, one
 * seqgen builds over the session factory's {@code DataSource} from the other settings and closes with it.
 */
public final class SeqgenHibernate {

    /** Setting holding the {@link SequenceRegistry} object (not a string) the session factory's generators use. */
    public static final String REGISTRY = "seqgen.hibernate.registry";

    /** Setting (default false): whether {@link #REGISTRY} must be given; without it the session factory fails. */
    public static final String REGISTRY_REQUIRED = "seqgen.hibernate.registry-required";

    /** Setting: the table ({@code [schema.]table}) of seqgen's own registry; default {@code seqgen_sequences}. */
    public static final String TABLE = "seqgen.table";

    /** Setting: the prefix of the database sequences of {@code native-sequence} kinds; default {@code seqgen_}. */
    public static final String SEQUENCE_PREFIX = "seqgen.jdbc.sequence-prefix";

    /** Setting ({@code always}/{@code never}; default always): whether seqgen and schema tools create its tables. */
    public static final String SCHEMA_INITIALIZE = "seqgen.schema.initialize";

    /** Setting: how long seqgen's own registry keeps an unused series ({@code 10m}, a Duration, 0 never; 10m). */
    public static final String SERIES_IDLE_TIMEOUT = "seqgen.series.idle-timeout";

    /**
     * Prefix of the settings naming series to open at start-up, followed by the sequence name; the value is the keys,
     * comma-separated or a collection ({@code seqgen.series.warm-up.invoices=acme/2026,globex/2026}). An unknown
     * sequence or key fails the start-up. Ignored when {@link #REGISTRY_REQUIRED} is true.
     */
    public static final String SERIES_WARM_UP_PREFIX = "seqgen.series.warm-up.";

    /** Prefix of seqgen's own registry's default settings: {@code seqgen.defaults.block-size=500}. */
    public static final String DEFAULTS_PREFIX = "seqgen.defaults.";

    /**
     * Prefix of one sequence's settings of seqgen's own registry, followed by the sequence name and a setting key:
     * {@code seqgen.sequences.invoices.strategy=sync}. They override {@link SeqgenGenerator}'s attributes.
     */
    public static final String SEQUENCES_PREFIX = "seqgen.sequences.";

    private SeqgenHibernate() {
    }

    /**
     * Opens the session factory's sequences not open yet and waits, at most {@code timeout} in all, for their first
     * blocks.
     *
     * @return the names of the sequences opened; empty if the session factory has no seqgen generator
     * @throws dev.seqgen.SequenceUnavailableException naming a sequence whose first block did not come in time
     * @throws org.hibernate.MappingException naming the entity and sequence if a sequence could not be opened
     */
    public static List<String> warmUp(SessionFactory sessionFactory, Duration timeout) {
        SeqgenRegistryService service = service(sessionFactory);
        return service == null ? List.of() : service.warmUp(timeout);
    }

    /** The settings of the sequences the session factory's generators number in series, by name; no I/O. */
    public static SortedMap<String, SequenceSettings> seriesSequences(SessionFactory sessionFactory) {
        SeqgenRegistryService service = service(sessionFactory);
        return service == null ? Collections.emptySortedMap() : service.seriesSequences();
    }

    /**
     * A snapshot of the registries counting {@code SYNC} series in each tenant's own schema or database, one per
     * tenant with recent series; the caller must not close them. No I/O.
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
     * Opens series of a sequence by key ({@code acme/2026}), as their first entities would, and waits, at most
     * {@code timeout} in all, for their first blocks: what {@link #SERIES_WARM_UP_PREFIX} does at start-up.
     *
     * @return false if no generator of the session factory numbers the sequence (nothing is opened)
     * @throws dev.seqgen.SequenceConfigurationException naming the setting and key if a key is not one of the
     *     sequence's series, or the sequence is not numbered in series; nothing is opened then
     * @throws dev.seqgen.SequenceUnavailableException naming a series whose first block did not come in time
     * @throws org.hibernate.MappingException naming the entity and sequence if a series could not be opened
     */
    public static boolean warmUpSeries(SessionFactory sessionFactory, String sequence, Collection<String> keys,
            Duration timeout) {
        SeqgenRegistryService service = service(sessionFactory);
        return service != null && service.warmUpSeries(sequence, keys,
                SeqgenRegistryService.tenantOf(sessionFactory.unwrap(SessionFactoryImplementor.class)), timeout);
    }
}
