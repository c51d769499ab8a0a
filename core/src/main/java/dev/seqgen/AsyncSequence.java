package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * {@link Strategy#ASYNC}: one store transaction per call, committed before the value is returned. Unique and ordered
 * in issue order; a caller that rolls back or crashes after taking a value leaves a gap. Throughput is bounded by one
 * over the store round trip, across all JVMs.
 */
final class AsyncSequence extends UnbufferedSequence {

    private final Executor executor;

    AsyncSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker, Executor executor) {
        super(name, settings, store, ticker);
        this.executor = executor;
    }

    @Override
    public long next() {
        return take(1).first();
    }

    @Override
    public long[] nextValues(int count) {
        requireCount(count);
        return consecutive(take(count).first(), count);
    }

    private ReservedRange take(int count) {
        long start = ticker.read();
        SequenceMetricsTracker.Span wait = tracker.start(SequenceMetricsTracker.Operation.WAIT, null);
        Throwable failure = null;
        try {
            // Bounded waits (docs/design.md#bounded-waits); a reservation arriving after the caller gave up is discarded.
            long deadline = start + timeoutNanos;
            checkOpen();
            Object caller = tracker.captureContext();
            CompletableFuture<ReservedRange> call = BatchSequence.handOff(executor, this, "reservation",
                    () -> reserve(count, deadline, caller));
            ReservedRange range;
            try {
                range = BatchSequence.await(call, this, deadline);
            } catch (SequenceUnavailableException e) {
                call.thenAccept(late -> discard(late.count()));
                throw e;
            }
            if (range.count() < count) {
                discard(range.count());
                throw new SequenceExhaustedException(name, settings.maxValue());
            }
            issued.add(count);
            return range;
        } catch (RuntimeException | Error e) {
            failure = e;
            throw e;
        } finally {
            recordWait(start);
            wait.end(failure);
        }
    }
}
