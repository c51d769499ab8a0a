package dev.seqgen.metrics.micrometer;

import dev.seqgen.Sequence;
import dev.seqgen.Strategy;
import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Publishes every sequence's metrics to a Micrometer {@link MeterRegistry}, for
 * {@link dev.seqgen.SequenceRegistry.Builder#metrics}. The meters, named by the constants below and tagged
 * {@code sequence}, {@code strategy}, {@code store} and {@code kind}, are registered once, in {@link #create}, and read
 * {@link Sequence#stats()} when scraped; a second sequence with the same tags shares (and keeps reading) the first
 * one's meters. See docs/operations.md#metrics.
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
    /** An {@code ObservationRegistry}, or null; typed Object so the class loads without it. */
    private final @Nullable Object observationRegistry;

    /** Creates a factory that registers meters in {@code registry}. */
    public MicrometerMetricsTrackerFactory(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.observationRegistry = null;
    }

    /**
     * Creates a factory that also reports each reservation, background refill and wait as an {@code Observation}; a
     * refill is a child of the observation current on the thread that triggered it.
     */
    public MicrometerMetricsTrackerFactory(MeterRegistry registry,
            io.micrometer.observation.ObservationRegistry observationRegistry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.observationRegistry = Objects.requireNonNull(observationRegistry, "observationRegistry");
    }

    /** {@return the value of the {@code strategy} tag for a strategy, such as {@code async-batch}} */
    public static String strategyTag(Strategy strategy) {
        return strategy.externalName();
    }

    /** Registers {@value #SERIES_OPEN}, tagged by the sequence alone. */
    @Override
    public void series(String sequence, java.util.function.IntSupplier openSeries) {
        Gauge.builder(SERIES_OPEN, openSeries::getAsInt)
                .description("Series of the sequence open in this JVM (one per tenant, year or other key in use)")
                .baseUnit("series")
                .tags(Tags.of("sequence", sequence))
                .register(registry);
    }

    /** Tags the store's counter kind, {@code table} or {@code native-sequence}, beside its name. */
    @Override
    public SequenceMetricsTracker create(Sequence sequence, dev.seqgen.spi.SequenceStore store) {
        Tags tags = tags(sequence, store.name(), store.kind().externalName());
        SequenceMetricsTracker tracker = create(sequence, tags);
        if (sequence.strategy() == Strategy.BATCH || sequence.strategy() == Strategy.ASYNC_BATCH) {
            // Carries the sequence's tags, so the tracker's close removes it too.
            gauge(KEPT_VALUES, store, served -> keptValues(served, sequence.name()), "Values of the sequence kept for"
                    + " the fleet by stopped instances, waiting in the store for an instance's block: the first of"
                    + " one that starts, or a refill of one whose values lie below them (the same in every JVM)",
                    IDS, tags);
        }
        return tracker;
    }

    /** NaN when the store cannot be read. */
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
        return create(sequence, tags(sequence, storeName, sequence.settings().kind().externalName()));
    }

    private SequenceMetricsTracker create(Sequence sequence, Tags tags) {
        counter(IDS_ISSUED, sequence, s -> s.stats().issued(), "Values handed out by this JVM", IDS, tags);
        gauge(BLOCK_REMAINING, sequence, s -> s.stats().remaining(), "Values in hand, including a prefetched block",
                IDS, tags);
        gauge(BLOCK_SIZE, sequence, s -> s.stats().blockSize(), "Size of the next block this JVM reserves", IDS, tags);
        if (sequence.strategy() == Strategy.ASYNC_BATCH) {
            gauge(REFILL_POINT, sequence, s -> s.stats().refillPoint(),
                    "Values left in the block in hand when the background refill starts", IDS, tags);
            counter(REFILLS_LATE, sequence, s -> s.stats().lateRefills(),
                    "Background refills that arrived after the block in hand ran out", "refills", tags);
        }
        gauge(CAPACITY_USED, sequence, s -> s.stats().capacityUsed(),
                "Share of the range from initial to maximum value that this JVM has reserved up to", "ratio", tags);
        return new MicrometerMetricsTracker(registry, tags, observationRegistry == null ? null
                : new SequenceObservations((io.micrometer.observation.ObservationRegistry) observationRegistry, tags));
    }

    private <T> void gauge(String name, T source, ToDoubleFunction<T> value, String description, String unit,
            Tags tags) {
        Gauge.builder(name, source, value).description(description).baseUnit(unit).tags(tags).register(registry);
    }

    private void counter(String name, Sequence sequence, ToDoubleFunction<Sequence> count, String description,
            String unit, Tags tags) {
        FunctionCounter.builder(name, sequence, count).description(description).baseUnit(unit).tags(tags)
                .register(registry);
    }
}
