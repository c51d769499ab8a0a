package dev.seqgen.metrics;

/**
 * Receives the events of one sequence that are not visible in its {@link dev.seqgen.SequenceStats}
 * snapshot: how long reservations and waits took. Counts and gauges (values issued, remaining, block size,
 * capacity used) are read from {@link dev.seqgen.Sequence#stats()} when a metrics system asks, so the hot
 * path reports nothing.
 *
 * <p>Implementations must be thread-safe and fast; seqgen guards every call, so an exception thrown here is
 * logged and never breaks a caller of {@code next()}.
 */
public interface SequenceMetricsTracker {

    /**
     * Called after each attempt to reserve values in the store.
     *
     * @param durationNanos how long the attempt took
     * @param success whether it reserved values
     */
    default void recordReservation(long durationNanos, boolean success) {
    }

    /** Called before a reservation is retried after a transient store error. */
    default void recordRetry() {
    }

    /**
     * Called when a caller had to wait for values: for the store, or for another caller's refill.
     *
     * @param durationNanos how long it waited
     */
    default void recordWait(long durationNanos) {
    }

    /**
     * Called when reserved values will never be handed out, for example an unused tail that could not be
     * given back at close.
     *
     * @param count how many values
     */
    default void recordDiscarded(long count) {
    }

    /**
     * Returns the tracker that ignores every event.
     *
     * @return the no-op tracker
     */
    static SequenceMetricsTracker noop() {
        return NoopTracker.INSTANCE;
    }
}

enum NoopTracker implements SequenceMetricsTracker {
    INSTANCE
}
