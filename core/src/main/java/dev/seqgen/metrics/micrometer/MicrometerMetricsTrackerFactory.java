package dev.seqgen.metrics.micrometer;

import dev.seqgen.Sequence;
import dev.seqgen.Strategy;
import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Publishes every sequence's metrics to a Micrometer {@link MeterRegistry}: pass it to
 * {@link dev.seqgen.SequenceRegistry.Builder#metrics} (the Spring Boot starter does so when a {@code MeterRegistry}
 * bean exists). The meters are the name constants below, tagged {@code sequence}, {@code strategy}, {@code store}
 * and {@code kind}, with descriptions and base units; docs/operations.md#metrics is their table.
 *
 * <p>Every meter is registered once, in {@link #create}, so recording an event looks nothing up; counts and gauges
 * read {@link Sequence#stats()} when scraped. A sequence's series share its meters (tagged by the sequence, never by
 * a key). A second sequence with the same tags in the same meter registry shares the first one's meters, whose
 * gauges keep reading the first.
 */
public final class MicrometerMetricsTrackerFactory implements SequenceMetricsTrackerFactory {

    /** The prefix of every seqgen meter name. */
    public static final String PREFIX = "seqgen";

    /** Values handed out. */
    public static final String IDS_ISSUED = PREFIX + ".ids.issued";

    /** Attempts to reserve values in the store, by result. */
    public static final String RESERVATIONS = PREFIX + ".reservations";

    /** Reservations retried after a transient store error. */
    public static final String RESERVATION_RETRIES = PREFIX + ".reservation.retries";

    /** Callers that had to wait for values. */
    public static final String WAITS = PREFIX + ".waits";

    /** Values in hand. */
    public static final String BLOCK_REMAINING = PREFIX + ".block.remaining";

    /** Size of the next block. */
    public static final String BLOCK_SIZE = PREFIX + ".block.size";

    /** Values left in the block when an async-batch sequence starts its background refill. */
    public static final String REFILL_POINT = PREFIX + ".refill.point";

    /** Background refills of an async-batch sequence that a caller had to wait for. */
    public static final String REFILLS_LATE = PREFIX + ".refills.late";

    /** Reserved values that will never be handed out. */
    public static final String IDS_DISCARDED = PREFIX + ".ids.discarded";

    /** Share of the sequence's range used up. */
    public static final String CAPACITY_USED = PREFIX + ".capacity.used";

    /** Gauge: values of a sequence kept for the fleet, waiting in the store for an instance's block. */
    public static final String KEPT_VALUES = PREFIX + ".kept.values";

    /** Gauge: the series of a sequence open in this JVM, tagged by the sequence only. */
    public static final String SERIES_OPEN = PREFIX + ".series.open";

    /** Observation of a reservation in the store's own transaction, its retries included. */
    public static final String RESERVATION_OBSERVATION = PREFIX + ".reservation";

    /** Observation of an ASYNC_BATCH background refill, a child of the caller that triggered it. */
    public static final String REFILL_OBSERVATION = PREFIX + ".refill";

    /** Observation of a caller waiting for values. */
    public static final String WAIT_OBSERVATION = PREFIX + ".wait";

    private static final String IDS = "ids";

    private final MeterRegistry registry;
    /** An {@code io.micrometer.observation.ObservationRegistry}, or null; typed Object so the class loads without it. */
    private final @Nullable Object observationRegistry;

    /** Creates a factory that registers meters in {@code registry}. */
    public MicrometerMetricsTrackerFactory(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.observationRegistry = null;
    }

    /**
     * Creates a factory that also reports each reservation, background refill and wait as an {@code Observation}
     * ({@value #RESERVATION_OBSERVATION}, {@value #REFILL_OBSERVATION}, {@value #WAIT_OBSERVATION}); a refill is a
     * child of the observation current on the thread that triggered it.
     */
    public MicrometerMetricsTrackerFactory(MeterRegistry registry,
            io.micrometer.observation.ObservationRegistry observationRegistry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.observationRegistry = Objects.requireNonNull(observationRegistry, "observationRegistry");
    }

    /**
     * Returns the value of the {@code strategy} tag for a strategy: its name in lowercase with hyphens.
     *
     * @param strategy the strategy
     * @return for example {@code async-batch}
     */
    public static String strategyTag(Strategy strategy) {
        return strategy.externalName();
    }

    /** Registers {@value #SERIES_OPEN}, tagged by the sequence alone. */
    @Override
    public void series(String sequence, java.util.function.IntSupplier openSeries) {
        Gauge.builder(SERIES_OPEN, openSeries, supplier -> supplier.getAsInt())
                .description("Series of the sequence open in this JVM (one per tenant, year or other key in use)")
                .baseUnit("series")
                .tags(Tags.of("sequence", sequence))
                .strongReference(true)
                .register(registry);
    }

    /** Tags the store's counter kind, {@code table} or {@code native-sequence}, beside its name. */
    @Override
    public SequenceMetricsTracker create(Sequence sequence, dev.seqgen.spi.SequenceStore store) {
        SequenceMetricsTracker tracker = create(sequence, store.name(), store.kind().externalName());
        if (sequence.strategy() == Strategy.BATCH || sequence.strategy() == Strategy.ASYNC_BATCH) {
            // Carries the sequence's tags, so the tracker's close removes it too.
            Gauge.builder(KEPT_VALUES, store, served -> keptValues(served, sequence.name()))
                    .description("Values of the sequence kept for the fleet by stopped instances, waiting in the"
                            + " store for an instance's block: the first of one that starts, or a refill of one whose"
                            + " values lie below them (the same in every JVM)")
                    .baseUnit(IDS)
                    .tags(tags(sequence, store.name(), store.kind().externalName()))
                    .register(registry);
        }
        return tracker;
    }

    /** The values of the sequence's kept ranges, or NaN when the store cannot be read. */
    private static double keptValues(dev.seqgen.spi.SequenceStore store, String sequence) {
        try {
            return store.keptRanges(sequence).stream().mapToLong(range -> range.count()).sum();
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    private static Tags tags(Sequence sequence, String storeName, String kind) {
        return Tags.of("sequence", sequence.name(), "strategy", strategyTag(sequence.strategy()), "store",
                storeName, "kind", kind);
    }

    /** Tags the kind the sequence's settings name (a registry serves it from its store of that kind). */
    @Override
    public SequenceMetricsTracker create(Sequence sequence, String storeName) {
        return create(sequence, storeName, sequence.settings().kind().externalName());
    }

    private SequenceMetricsTracker create(Sequence sequence, String storeName, String kind) {
        Tags tags = tags(sequence, storeName, kind);
        FunctionCounter.builder(IDS_ISSUED, sequence, s -> s.stats().issued())
                .description("Values handed out by this JVM")
                .baseUnit(IDS)
                .tags(tags)
                .register(registry);
        Gauge.builder(BLOCK_REMAINING, sequence, s -> s.stats().remaining())
                .description("Values in hand, including a prefetched block")
                .baseUnit(IDS)
                .tags(tags)
                .register(registry);
        Gauge.builder(BLOCK_SIZE, sequence, s -> s.stats().blockSize())
                .description("Size of the next block this JVM reserves")
                .baseUnit(IDS)
                .tags(tags)
                .register(registry);
        if (sequence.strategy() == Strategy.ASYNC_BATCH) {
            Gauge.builder(REFILL_POINT, sequence, s -> s.stats().refillPoint())
                    .description("Values left in the block in hand when the background refill starts")
                    .baseUnit(IDS)
                    .tags(tags)
                    .register(registry);
            FunctionCounter.builder(REFILLS_LATE, sequence, s -> s.stats().lateRefills())
                    .description("Background refills that arrived after the block in hand ran out")
                    .baseUnit("refills")
                    .tags(tags)
                    .register(registry);
        }
        Gauge.builder(CAPACITY_USED, sequence, s -> s.stats().capacityUsed())
                .description("Share of the range from initial to maximum value that this JVM has reserved up to")
                .baseUnit("ratio")
                .tags(tags)
                .register(registry);
        SequenceObservations observations = observationRegistry == null ? null
                : new SequenceObservations((io.micrometer.observation.ObservationRegistry) observationRegistry,
                        io.micrometer.common.KeyValues.of("sequence", sequence.name(), "strategy",
                                strategyTag(sequence.strategy()), "store", storeName, "kind", kind));
        return new MicrometerMetricsTracker(
                reservations(tags, "success"),
                reservations(tags, "failure"),
                Counter.builder(RESERVATION_RETRIES)
                        .description("Reservations retried after a transient store error")
                        .baseUnit("retries")
                        .tags(tags)
                        .register(registry),
                Timer.builder(WAITS)
                        .description("Time callers waited for values, for the store or for another caller's refill")
                        .tags(tags)
                        .register(registry),
                Counter.builder(IDS_DISCARDED)
                        .description("Reserved values that will never be handed out")
                        .baseUnit(IDS)
                        .tags(tags)
                        .register(registry),
                observations, registry, tags);
    }

    private Timer reservations(Tags tags, String result) {
        return Timer.builder(RESERVATIONS)
                .description("Attempts to reserve values in the store")
                .tags(tags)
                .tag("result", result)
                .register(registry);
    }
}
