package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;

import java.lang.System.Logger.Level;
import org.jspecify.annotations.Nullable;

/** A tracker that logs and swallows what the wrapped one throws, so metrics never break a caller. */
final class GuardedMetricsTracker implements SequenceMetricsTracker {

    private static final System.Logger LOG = System.getLogger(GuardedMetricsTracker.class.getName());

    private final SequenceMetricsTracker delegate;

    GuardedMetricsTracker(SequenceMetricsTracker delegate) {
        this.delegate = delegate;
    }

    static SequenceMetricsTracker guard(@Nullable SequenceMetricsTracker tracker) {
        return tracker == null || tracker == SequenceMetricsTracker.noop() ? SequenceMetricsTracker.noop()
                : new GuardedMetricsTracker(tracker);
    }

    private static void guarded(String method, Runnable call) {
        try {
            call.run();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in " + method, e);
        }
    }

    @Override
    public void recordReservation(long durationNanos, boolean success) {
        guarded("recordReservation", () -> delegate.recordReservation(durationNanos, success));
    }

    @Override
    public void recordRetry() {
        guarded("recordRetry", delegate::recordRetry);
    }

    @Override
    public void recordWait(long durationNanos) {
        guarded("recordWait", () -> delegate.recordWait(durationNanos));
    }

    @Override
    public void recordDiscarded(long count) {
        guarded("recordDiscarded", () -> delegate.recordDiscarded(count));
    }

    @Override
    public @Nullable Object captureContext() {
        try {
            return delegate.captureContext();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in captureContext", e);
            return null;
        }
    }

    @Override
    public Span start(Operation operation, @Nullable Object parentContext) {
        Span span;
        try {
            span = delegate.start(operation, parentContext);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in start", e);
            return Span.NONE;
        }
        return failure -> guarded("end", () -> span.end(failure));
    }

    @Override
    public void close() {
        guarded("close", delegate::close);
    }
}
