package dev.seqgen.metrics.micrometer;

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
    /** The tags every meter of this sequence carries. */
    private final Tags tags;
    private final @Nullable SequenceObservations observations;

    MicrometerMetricsTracker(MeterRegistry registry, Tags tags, @Nullable SequenceObservations observations) {
        this.registry = registry;
        this.tags = tags;
        this.observations = observations;
        this.reservationSuccesses = reservations("success");
        this.reservationFailures = reservations("failure");
        this.retries = Counter.builder(MicrometerMetricsTrackerFactory.RESERVATION_RETRIES)
                .description("Reservations retried after a transient store error")
                .baseUnit("retries")
                .tags(tags)
                .register(registry);
        this.waits = Timer.builder(MicrometerMetricsTrackerFactory.WAITS)
                .description("Time callers waited for values, for the store or for another caller's refill")
                .tags(tags)
                .register(registry);
        this.discarded = Counter.builder(MicrometerMetricsTrackerFactory.IDS_DISCARDED)
                .description("Reserved values that will never be handed out")
                .baseUnit("ids")
                .tags(tags)
                .register(registry);
    }

    private Timer reservations(String result) {
        return Timer.builder(MicrometerMetricsTrackerFactory.RESERVATIONS)
                .description("Attempts to reserve values in the store")
                .tags(tags)
                .tag("result", result)
                .register(registry);
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
        for (Meter meter : registry.getMeters()) {
            Meter.Id id = meter.getId();
            if (id.getName().startsWith(MicrometerMetricsTrackerFactory.PREFIX + ".")
                    && tags.stream().allMatch(tag -> tag.getValue().equals(id.getTag(tag.getKey())))) {
                registry.remove(meter);
            }
        }
    }
}
