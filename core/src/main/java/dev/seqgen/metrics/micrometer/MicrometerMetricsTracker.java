package dev.seqgen.metrics.micrometer;

import static dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory.IDS_DISCARDED;
import static dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory.PREFIX;
import static dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory.RESERVATIONS;
import static dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory.RESERVATION_RETRIES;
import static dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory.WAITS;

import dev.seqgen.metrics.SequenceMetricsTracker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** Records one sequence's events on meters it registers once, at creation. */
final class MicrometerMetricsTracker implements SequenceMetricsTracker {

    private final Timer reservationSuccesses;
    private final Timer reservationFailures;
    private final Counter retries;
    private final Timer waits;
    private final Counter discarded;
    private final MeterRegistry registry;
    private final Tags tags;
    private final @Nullable SequenceObservations observations;

    MicrometerMetricsTracker(MeterRegistry registry, Tags tags, @Nullable SequenceObservations observations) {
        this.registry = registry;
        this.tags = tags;
        this.observations = observations;
        String attempts = "Attempts to reserve values in the store";
        this.reservationSuccesses = timer(RESERVATIONS, attempts, tags.and("result", "success"));
        this.reservationFailures = timer(RESERVATIONS, attempts, tags.and("result", "failure"));
        this.retries = counter(RESERVATION_RETRIES, "Reservations retried after a transient store error", "retries");
        this.waits = timer(WAITS, "Time callers waited for values, for the store or for another caller's refill", tags);
        this.discarded = counter(IDS_DISCARDED, "Reserved values that will never be handed out", "ids");
    }

    private Timer timer(String name, String description, Tags timerTags) {
        return Timer.builder(name).description(description).tags(timerTags).register(registry);
    }

    private Counter counter(String name, String description, String unit) {
        return Counter.builder(name).description(description).baseUnit(unit).tags(tags).register(registry);
    }

    @Override
    public void recordReservation(long durationNanos, boolean success) {
        (success ? reservationSuccesses : reservationFailures).record(durationNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void recordRetry() {
        retries.increment();
    }

    @Override
    public void recordWait(long durationNanos) {
        waits.record(durationNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void recordDiscarded(long count) {
        discarded.increment(count);
    }

    @Override
    public @Nullable Object captureContext() {
        return observations == null ? null : observations.current();
    }

    @Override
    public Span start(Operation operation, @Nullable Object parentContext) {
        return observations == null ? Span.NONE : observations.start(operation, parentContext);
    }

    /** Removes every seqgen meter carrying this sequence's tags. */
    @Override
    public void close() {
        registry.getMeters().stream()
                .map(Meter::getId)
                .filter(id -> id.getName().startsWith(PREFIX + ".")
                        && tags.stream().allMatch(tag -> tag.getValue().equals(id.getTag(tag.getKey()))))
                .forEach(registry::remove);
    }
}
