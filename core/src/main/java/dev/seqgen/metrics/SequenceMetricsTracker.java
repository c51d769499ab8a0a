package dev.seqgen.metrics;

import org.jspecify.annotations.Nullable;

/**
 * Receives the events of one sequence that its {@link dev.seqgen.SequenceStats} snapshot does not show: how long
 * reservations and waits took. The hot path reports nothing. Implementations must be thread-safe and fast; seqgen
 * guards every call, so an exception thrown here is logged and never breaks a caller.
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

    /** Called when a caller waited {@code durationNanos} for values: for the store, or another caller's refill. */
    default void recordWait(long durationNanos) {
    }

    /** Called when {@code count} reserved values will never be handed out (a tail not given back at close). */
    default void recordDiscarded(long count) {
    }

    /** Called once when the sequence closes: a tracker removes its meters, so a new sequence can publish its own. */
    default void close() {
    }

    /**
     * {@return the current trace context, or null}: captured on a thread that hands work (a background refill) to
     * another, so that work can be observed as its child.
     */
    default @Nullable Object captureContext() {
        return null;
    }

    /**
     * Starts observing an operation (a trace span, for Micrometer an {@code Observation}); the returned span is
     * ended once, on the same thread, when the operation ends.
     *
     * @param operation what is observed
     * @param parentContext a context from {@link #captureContext()} on another thread, or null for the current
     *     thread's own
     * @return the span to end
     */
    default Span start(Operation operation, @Nullable Object parentContext) {
        return Span.NONE;
    }

    /** The operations {@link #start} observes. */
    enum Operation {
        /** One reservation in the store's own transaction, its retries included. */
        RESERVATION,
        /** A background refill (ASYNC_BATCH), the child of the caller whose value triggered it. */
        REFILL,
        /** A caller waiting for values: for the store, or for another caller's refill. */
        WAIT
    }

    /** An observed operation in progress. */
    @FunctionalInterface
    interface Span {

        /** The span that records nothing. */
        Span NONE = failure -> { };

        /** Ends the operation; {@code failure} is what made it fail, or null when it succeeded. */
        void end(@Nullable Throwable failure);
    }

    /** {@return the tracker that ignores every event} */
    static SequenceMetricsTracker noop() {
        return NoopTracker.INSTANCE;
    }
}

enum NoopTracker implements SequenceMetricsTracker {
    INSTANCE
}
