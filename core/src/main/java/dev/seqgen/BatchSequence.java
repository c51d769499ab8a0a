package dev.seqgen;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * {@link Strategy#BATCH}: one store transaction per block; the caller that finds the block empty reserves
 * the next one while the others wait for it (see {@link BlockSequence} for the hand-off). Unique; ordered
 * per JVM only; not gapless: a crashed JVM loses at most the rest of one block; a closed one gives it back to the
 * row or keeps it for the fleet.
 * Throughput is bounded by block size over the store round trip.
 *
 * <pre>
 * Bounded waits
 *
 * The refilling caller does not run the reservation itself: it hands it to the executor and waits for it with
 * a timed get, so a store call that hangs (a slow statement, a lock held elsewhere, the dedicated connection
 * lent to another sequence) ends the caller's wait at its acquire timeout, not when the store answers. The
 * reservation it stopped waiting for stays in pending: the next caller that needs a block (under refillLock,
 * like this one) waits for that same reservation instead of starting another, and uses its block. At close a
 * finished one is released with the block in hand, and a late one when it arrives. A failed one is dropped
 * by the next caller, which starts a fresh reservation.
 * </pre>
 */
final class BatchSequence extends BlockSequence {

    private final Executor executor;
    /** The reservation in flight or finished and not yet installed; written only under refillLock and at close. */
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
        CompletableFuture<Block> refill = pending;
        return refill != null && refill.isDone() && !refill.isCompletedExceptionally();
    }

    @Override
    Block obtainNextBlock(Block exhausted, long deadline) {
        for (;;) {
            CompletableFuture<Block> refill = pending;
            boolean inherited = refill != null && !refill.isCompletedExceptionally();
            if (!inherited) {
                refill = startReservation(deadline);
                pending = refill;
            }
            try {
                Block next = Handoff.await(refill, name, ticker, deadline, this);
                pending = null;
                return next;
            } catch (SequenceUnavailableException e) {
                if (refill.isCompletedExceptionally()) {
                    pending = null;
                }
                // A reservation inherited from a caller that gave up may have failed on an outage that has ended
                // since it began: while this caller's own deadline leaves time, it starts one of its own.
                if (!inherited || !refill.isCompletedExceptionally() || !new Backoff().fits(ticker.read(), deadline)) {
                    throw e;
                }
            }
        }
    }

    private CompletableFuture<Block> startReservation(long deadline) {
        long size = sizeNextReservation();
        Object caller = tracker.captureContext();
        return Handoff.run(executor, this, "reservation", () -> {
            ReservedRange range = reserve(size, deadline, caller);
            return new Block(range.first(), range.end(), -1);
        });
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
            // Still in flight: released when it arrives, and reported then.
            report.note("a reservation still in flight is released when it arrives");
            late.thenAccept(arrived -> releaseLate(arrived));
        }
    }

    /** The hand-off of a store call to the executor, shared by BATCH and ASYNC. */
    static final class Handoff {

        private Handoff() {
        }

        interface StoreCall<T> {
            T run();
        }

        /** Runs the call on the executor; a hand-off that throws anything fails the returned future. */
        static <T> CompletableFuture<T> run(Executor executor, AbstractSequence sequence, String what,
                StoreCall<T> call) {
            CompletableFuture<T> future = new CompletableFuture<>();
            try {
                executor.execute(() -> {
                    try {
                        future.complete(call.run());
                    } catch (Throwable e) {
                        future.completeExceptionally(e);
                    }
                });
            } catch (Throwable e) {
                // The registry shuts its executor down at close: a caller racing close is told the sequence is
                // closed, not that the executor refused.
                future.completeExceptionally(sequence.closed
                        ? new SequenceUnavailableException(sequence.name, "the sequence is closed", null)
                        : new SequenceUnavailableException(sequence.name,
                                "the executor failed to start the " + what + ": " + e, e));
            }
            return future;
        }

        /** Waits for the call until the deadline; a call that fails rethrows its sequence exception. */
        static <T> T await(CompletableFuture<T> future, String name, Ticker ticker, long deadline,
                AbstractSequence sequence) {
            try {
                return future.get(Math.max(0, deadline - ticker.read()), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw sequence.timedOut("the store did not answer");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SequenceUnavailableException(name, "interrupted while waiting for the store", e);
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof SequenceException sequenceFailure) {
                    throw sequenceFailure;
                }
                if (cause instanceof IllegalArgumentException argument) {
                    throw argument;
                }
                throw new SequenceUnavailableException(name, "the store failed: " + cause, cause);
            }
        }
    }
}
