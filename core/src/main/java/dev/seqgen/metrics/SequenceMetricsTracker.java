package dev.seqgen.metrics;

import org.jspecify.annotations.Nullable;

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
     * Called once when the sequence closes: a tracker that registered meters removes them, so that a sequence
     * created again under the same name (a refreshed application context, a new registry) publishes its own and
     * no meter keeps reading a closed sequence.
     */
    default void close() {
    }

    /**
     * Returns the caller's current trace context (for Micrometer, the current {@code Observation}), captured on
     * the thread that starts work another thread will do, such as a background refill, so that work can be
     * observed as its child.
     *
     * @return the context, or null
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

        /**
         * Ends the operation.
         *
         * @param failure what made it fail, or null when it succeeded
         */
        void end(@Nullable Throwable failure);
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
