package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;

import java.lang.System.Logger.Level;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** A tracker that logs and swallows what the wrapped one throws, so metrics never break a caller. */
final class GuardedMetricsTracker implements SequenceMetricsTracker {

    private static final System.Logger LOG = System.getLogger(GuardedMetricsTracker.class.getName());

    private final SequenceMetricsTracker delegate;
    /** False for a series' use of its group's tracker, whose meters the other series share. */
    private final boolean closes;

    GuardedMetricsTracker(SequenceMetricsTracker delegate, boolean closes) {
        this.delegate = delegate;
        this.closes = closes;
    }

    static SequenceMetricsTracker guard(@Nullable SequenceMetricsTracker tracker) {
        return tracker == null || tracker == SequenceMetricsTracker.noop() ? SequenceMetricsTracker.noop()
                : new GuardedMetricsTracker(tracker, true);
    }

    private static void guarded(String method, Runnable call) {
        guarded(method, () -> {
            call.run();
            return null;
        }, null);
    }

    private static <T> T guarded(String method, Supplier<T> call, T fallback) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "metrics tracker failed in " + method, e);
            return fallback;
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
        return guarded("captureContext", delegate::captureContext, null);
    }

    @Override
    public Span start(Operation operation, @Nullable Object parentContext) {
        Span span = guarded("start", () -> delegate.start(operation, parentContext), Span.NONE);
        return span == Span.NONE ? span : failure -> guarded("end", () -> span.end(failure));
    }

    @Override
    public void close() {
        if (closes) {
            guarded("close", delegate::close);
        }
    }
}
