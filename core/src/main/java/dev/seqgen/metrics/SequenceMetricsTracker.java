package dev.seqgen.metrics;

import org.jspecify.annotations.Nullable;

/**
 * Receives the events of one sequence its {@link dev.seqgen.SequenceStats} do not show (how long reservations and waits
 * took), never from the hot path. Implementations must be thread-safe and fast; exceptions thrown here are only logged.
 */
public interface SequenceMetricsTracker {

    /** Called after each attempt to reserve values in the store, with how long it took and whether it reserved. */
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

    /** Called once when the sequence closes: the tracker removes its meters, so a new sequence can publish its own. */
    default void close() {
    }

    /** {@return the current trace context, or null}: for work handed to another thread, observed as its child. */
    default @Nullable Object captureContext() {
        return null;
    }

    /**
     * Starts observing an operation (for Micrometer an {@code Observation}); the span returned is ended once, on the
     * same thread. {@code parentContext} is from {@link #captureContext()} on another thread, or null for this one's.
     */
    default Span start(Operation operation, @Nullable Object parentContext) {
        return Span.NONE;
    }

    /** The operations {@link #start} observes. */
    enum Operation {
        /** One reservation in the store's own transaction, its retries included. */
        RESERVATION,
        /** An ASYNC_BATCH background refill, the child of the caller that triggered it. */
        REFILL,
        /** A caller waiting for values. */
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
