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

    @Override
    public void recordReservation(long durationNanos, boolean success) {
        try {
            delegate.recordReservation(durationNanos, success);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in recordReservation", e);
        }
    }

    @Override
    public void recordRetry() {
        try {
            delegate.recordRetry();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in recordRetry", e);
        }
    }

    @Override
    public void recordWait(long durationNanos) {
        try {
            delegate.recordWait(durationNanos);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in recordWait", e);
        }
    }

    @Override
    public void recordDiscarded(long count) {
        try {
            delegate.recordDiscarded(count);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in recordDiscarded", e);
        }
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
        return failure -> {
            try {
                span.end(failure);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "metrics tracker failed in end", e);
            }
        };
    }

    @Override
    public void close() {
        try {
            delegate.close();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in close", e);
        }
    }
}
