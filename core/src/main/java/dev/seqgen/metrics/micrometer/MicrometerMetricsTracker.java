package dev.seqgen.metrics.micrometer;

import dev.seqgen.metrics.SequenceMetricsTracker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/** Records one sequence's events on meters registered in advance by {@link MicrometerMetricsTrackerFactory}. */
final class MicrometerMetricsTracker implements SequenceMetricsTracker {

    private final Timer reservationSuccesses;
    private final Timer reservationFailures;
    private final Counter retries;
    private final Timer waits;
    private final Counter discarded;

    private final MeterRegistry registry;
    /** The tags every meter of this sequence carries: sequence, strategy, store. */
    private final Tags tags;
    /** Null without observations. */
    private final @Nullable SequenceObservations observations;

    MicrometerMetricsTracker(Timer reservationSuccesses, Timer reservationFailures, Counter retries, Timer waits,
            Counter discarded, @Nullable SequenceObservations observations, MeterRegistry registry, Tags tags) {
        this.observations = observations;
        this.registry = registry;
        this.tags = tags;
        this.reservationSuccesses = reservationSuccesses;
        this.reservationFailures = reservationFailures;
        this.retries = retries;
        this.waits = waits;
        this.discarded = discarded;
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
