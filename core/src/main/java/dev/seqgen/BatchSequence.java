package dev.seqgen;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * {@link Strategy#BATCH}: one store transaction per block, reserved by the caller that finds the block empty while the
 * others wait. Unique; ordered per JVM only; a crash loses at most the rest of one block. The reservation runs on the
 * executor under a timed wait; an abandoned one waits in {@code pending} for the next caller
 * (docs/design.md#bounded-waits).
 */
final class BatchSequence extends BlockSequence {

    private final Executor executor;
    /** The reservation in flight or not yet installed; written only under refillLock and at close. */
    private volatile @Nullable CompletableFuture<Block> pending;

    BatchSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker, Executor executor) {
        super(name, settings, store, ticker);
        this.executor = executor;
    }

    @Override
    void lowWatermarkReached() {
        // BATCH blocks carry no trigger position.
    }

    @Override
    boolean nextBlockReady() {
        return Block.sizeIfReady(pending) > 0;
    }

    @Override
    Block obtainNextBlock(Block exhausted, long deadline) {
        for (;;) {
            CompletableFuture<Block> refill = pending;
            boolean inherited = refill != null && !refill.isCompletedExceptionally();
            if (!inherited) {
                long size = sizeNextReservation();
                Object caller = tracker.captureContext();
                refill = handOff(executor, this, "reservation", () -> {
                    ReservedRange range = reserve(size, deadline, caller);
                    return new Block(range.first(), range.end(), -1);
                });
                pending = refill;
            }
            try {
                Block next = await(refill, this, deadline);
                pending = null;
                return next;
            } catch (SequenceUnavailableException e) {
                if (refill.isCompletedExceptionally()) {
                    pending = null;
                }
                // An inherited reservation may have failed on an outage since ended: retry within this deadline.
                if (!inherited || !refill.isCompletedExceptionally() || !new Backoff().fits(ticker.read(), deadline)) {
                    throw e;
                }
            }
        }
    }

    @Override
    long extraRemaining() {
        return Block.sizeIfReady(pending);
    }

    @Override
    void releaseUnused(CloseReport.Collector report, Block block, long firstUnused) {
        CompletableFuture<Block> late = pending;
        pending = null;
        Block next = late != null && late.isDone() && !late.isCompletedExceptionally() ? late.join() : null;
        if (next != null && next.first == block.end) {
            release(report, firstUnused, next.end);
            return;
        }
        release(report, firstUnused, block.end);
        if (next != null) {
            release(report, next.first, next.end);
        } else if (late != null && !late.isDone()) {
            report.note("a reservation still in flight is released when it arrives");
            late.thenAccept(this::releaseLate);
        }
    }

    /** Runs a store call on the executor (BATCH and ASYNC); a hand-off that throws fails the returned future. */
    static <T> CompletableFuture<T> handOff(Executor executor, AbstractSequence sequence, String what,
            Supplier<T> call) {
        try {
            return CompletableFuture.supplyAsync(call, executor);
        } catch (Throwable e) {
            // The registry shuts its executor down at close: a caller racing close is told it is closed.
            return CompletableFuture.failedFuture(sequence.closed
                    ? new SequenceUnavailableException(sequence.name, "the sequence is closed", null)
                    : new SequenceUnavailableException(sequence.name,
                            "the executor failed to start the " + what + ": " + e, e));
        }
    }

    /** Waits for a handed-off call until the deadline; a call that fails rethrows its sequence exception. */
    static <T> T await(CompletableFuture<T> future, AbstractSequence sequence, long deadline) {
        try {
            return future.get(Math.max(0, deadline - sequence.ticker.read()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw sequence.timedOut("the store did not answer");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SequenceUnavailableException(sequence.name, "interrupted while waiting for the store", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SequenceException || cause instanceof IllegalArgumentException) {
                throw (RuntimeException) cause;
            }
            throw new SequenceUnavailableException(sequence.name, "the store failed: " + cause, cause);
        }
    }
}
