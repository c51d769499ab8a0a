package dev.seqgen.hibernate;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.function.Function;
import org.hibernate.SessionFactory;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The Hibernate settings seqgen reads, and calls on a session factory's generators. The registry is {@link #REGISTRY}'s
 * (not closed by seqgen), or one seqgen builds over the session factory's {@code DataSource} and closes with it.
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
     * Prefix, then a sequence name: series keys to open at start-up, comma-separated or a collection; an unknown
     * sequence or key fails the start-up. Ignored when {@link #REGISTRY_REQUIRED} is true.
     */
    public static final String SERIES_WARM_UP_PREFIX = "seqgen.series.warm-up.";

    /** Prefix of seqgen's own registry's default settings: {@code seqgen.defaults.block-size=500}. */
    public static final String DEFAULTS_PREFIX = "seqgen.defaults.";

    /** Prefix of one sequence's settings, overriding the annotation's: {@code seqgen.sequences.invoices.strategy}. */
    public static final String SEQUENCES_PREFIX = "seqgen.sequences.";

    private SeqgenHibernate() {
    }

    /**
     * Opens the session factory's sequences not open yet, waiting at most {@code timeout} in all for their first
     * blocks; returns their names (empty without seqgen generators).
     *
     * @throws dev.seqgen.SequenceUnavailableException naming a sequence whose first block did not come in time
     * @throws org.hibernate.MappingException naming the entity and sequence if a sequence could not be opened
     */
    public static List<String> warmUp(SessionFactory sessionFactory, Duration timeout) {
        return withService(sessionFactory, List.of(), service -> service.warmUp(timeout));
    }

    /** The settings of the sequences the session factory's generators number in series, by name; no I/O. */
    public static SortedMap<String, SequenceSettings> seriesSequences(SessionFactory sessionFactory) {
        return withService(sessionFactory, Collections.emptySortedMap(), SeqgenRegistryService::seriesSequences);
    }

    /** A snapshot of the registries counting SYNC series in each tenant's own schema, not to be closed; no I/O. */
    public static List<SequenceRegistry> tenantRegistries(SessionFactory sessionFactory) {
        return withService(sessionFactory, List.of(), SeqgenRegistryService::tenantRegistries);
    }

    /**
     * Opens series of a sequence by key ({@code acme/2026}) as {@link #SERIES_WARM_UP_PREFIX} does, waiting at most
     * {@code timeout} in all for their first blocks; false if no generator numbers the sequence.
     *
     * @throws dev.seqgen.SequenceConfigurationException naming the setting and key if a key is not one of the
     *     sequence's series (nothing is opened then)
     * @throws dev.seqgen.SequenceUnavailableException naming a series whose first block did not come in time
     * @throws org.hibernate.MappingException naming the entity and sequence if a series could not be opened
     */
    public static boolean warmUpSeries(SessionFactory sessionFactory, String sequence, Collection<String> keys,
            Duration timeout) {
        return withService(sessionFactory, false, service -> service.warmUpSeries(sequence, keys,
                sessionFactory.unwrap(SessionFactoryImplementor.class), timeout));
    }

    private static <T> T withService(SessionFactory sessionFactory, T none, Function<SeqgenRegistryService, T> call) {
        SeqgenRegistryService service = sessionFactory.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .getService(SeqgenRegistryService.class);
        return service == null ? none : call.apply(service);
    }
}
