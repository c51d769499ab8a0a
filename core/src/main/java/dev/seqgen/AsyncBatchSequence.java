package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * {@link Strategy#ASYNC_BATCH}: BATCH plus a background refill, so callers wait only when the refill is
 * late. Unique; ordered per JVM only; not gapless: a crashed JVM loses at most the rest of its block and its
 * prefetched block; a closed one gives them back to the row or keeps them for the fleet. Throughput is bounded by block size over the store round
 * trip, with no store latency on the callers' path while refills keep up.
 *
 * <pre>
 * The background path
 *
 * prefetch holds at most one refill: in flight, ready, or failed. It is set by a compare-and-set from
 * null (or from a failed refill) to a new future, so two refills of one sequence never run at once; the
 * thread that wins the CAS hands the reservation to the executor. Two callers start refills:
 *   - the one caller that claims the block's trigger offset (size - 1 - refill point), on the fast path;
 *   - a caller in the slow path that finds no usable refill (the first block, or a failed refill).
 * Only the refillLock holder in the slow path takes a ready block out of prefetch (CAS to null) and then
 * publishes it as current; the CAS comes first, so a trigger on the new block always finds prefetch free.
 * A caller waits for the refill with a timed get, bounded by its acquire timeout. The refill point (how many
 * values are left when the refill starts) and the block size come from {@link RefillControl}, whose control
 * loop measures how long refills take and how fast values go, and spaces refills out when they queue at a row
 * shared with other instances. A refill that failed
 * on transient errors is replaced by a fresh one while the waiting caller's deadline leaves time (the
 * failed one may have started long before, during an outage that has ended); any other failure is
 * reported to the caller that waited for it, and the next caller starts a new refill, which is how the
 * sequence recovers when the store comes back. The warm-up alone may queue a third block behind the second
 * (following: set under refillLock while prefetch holds the finished second block, and moved into prefetch by the
 * same compare-and-set that takes the second out), so refills still never overlap and blocks are installed in the
 * order they were reserved.
 * </pre>
 */
final class AsyncBatchSequence extends BlockSequence {

    private final Executor executor;
    private final AtomicReference<@Nullable CompletableFuture<Block>> prefetch = new AtomicReference<>();
    /**
     * A third block the warm-up reserved while the second waits in prefetch; it takes the second's place in prefetch
     * when the second is installed (or fails). Set only under refillLock while prefetch holds the second.
     */
    private final AtomicReference<@Nullable CompletableFuture<Block>> following = new AtomicReference<>();
    /** Whether the last background refill failed; refills of one sequence never overlap (see prefetch). */
    private volatile boolean refillsFailing;

    AsyncBatchSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker, Executor executor) {
        super(name, settings, store, ticker);
        this.executor = executor;
    }

    /** Reserves the first block in the background, so the first caller is unlikely to wait. */
    void start() {
        startPrefetch();
    }

    @Override
    void lowWatermarkReached() {
        startPrefetch();
    }

    /** Returns the refill in flight or ready, starting one if there is none or the last one failed. */
    private CompletableFuture<Block> startPrefetch() {
        for (;;) {
            CompletableFuture<Block> existing = prefetch.get();
            if (existing != null && !existing.isCompletedExceptionally()) {
                return existing;
            }
            CompletableFuture<Block> refill = new CompletableFuture<>();
            if (prefetch.compareAndSet(existing, refill)) {
                handOff(refill);
                return refill;
            }
        }
    }

    /** Hands a published refill to the executor. */
    private void handOff(CompletableFuture<Block> refill) {
        // The refill is published before the hand-off, so whatever the hand-off throws must complete it: a refill
        // left pending would be waited for by every later caller and never replaced. Errors too (an executor that
        // cannot start a thread throws OutOfMemoryError): the caller here may be the one that claimed the trigger
        // offset, whose value must not be lost to the background's trouble. The failed refill is replaced by the
        // next caller that needs one, so the sequence recovers as soon as the executor works again.
        Object caller = tracker.captureContext();
        // The refill's time is measured from here, so the control loop sees the whole time a caller would wait for
        // it, the executor's queueing included.
        long askedAt = ticker.read();
        try {
            executor.execute(() -> runRefill(refill, caller, askedAt));
        } catch (RejectedExecutionException e) {
            refill.completeExceptionally(new SequenceUnavailableException(name,
                    "the refill executor rejected the background refill", e));
        } catch (Throwable e) {
            LOG.log(Level.WARNING, "sequence '" + name + "': the refill executor failed to start the background"
                    + " refill: " + e);
            refill.completeExceptionally(new SequenceUnavailableException(name,
                    "the refill executor failed to start the background refill: " + e, e));
        }
    }

    private void runRefill(CompletableFuture<Block> refill, @Nullable Object caller, long askedAt) {
        SequenceMetricsTracker.Span span = tracker.start(SequenceMetricsTracker.Operation.REFILL, caller);
        Throwable failure = null;
        try {
            long size = sizeNextReservation();
            ReservedRange range = reserve(size, ticker.read() + timeoutNanos);
            // Claiming this offset leaves exactly the refill point in the block (offset 0 for a block shorter
            // than the refill point, as the last block below the maximum value may be).
            long arrived = ticker.read();
            long refillPoint = control.afterReservation(range.count(), arrived - askedAt, arrived, issued());
            long triggerAt = Math.max(0, range.count() - 1 - refillPoint);
            // Noted before the block is handed over, so the note precedes every value of the block.
            if (refillsFailing) {
                refillsFailing = false;
                LOG.log(Level.INFO, "sequence '" + name + "': background refills work again");
            }
            refill.complete(new Block(range.first(), range.end(), triggerAt));
        } catch (Throwable e) {
            // A refill that finds the sequence closed (it was queued or under way when close() began, which waits
            // for it) reserved nothing and is no outage: noted at DEBUG, not warned of at every shut-down.
            // Otherwise one warning per outage: the first failed refill after a good one (or the first refill)
            // warns; later ones are left to the metrics until a refill succeeds again.
            if (closed) {
                LOG.log(Level.DEBUG, "sequence '" + name + "': a background refill failed after the sequence was"
                        + " closed: " + e.getMessage());
            } else if (!refillsFailing) {
                refillsFailing = true;
                LOG.log(Level.WARNING, "sequence '" + name + "': a background refill failed; callers are served"
                        + " from what is left, then wait up to the acquire timeout: " + e.getMessage());
            }
            failure = e;
            refill.completeExceptionally(e);
        } finally {
            span.end(failure);
        }
    }

    /**
     * Starts the refill of the second block at once and waits for it until the warm-up's deadline; when the blocks
     * in hand then do not last the start-up queue the two reservations revealed, reserves a third one, queued behind
     * the second in {@link #following}, and waits for it too (see {@link RefillControl}, "The first block and the
     * start-up queue"). A block that does not come in time leaves the warm-up with what is in hand; its refill goes
     * on, as any background refill.
     */
    @Override
    void awaitSecondBlock(long deadline) {
        CompletableFuture<Block> second = startPrefetch();
        if (!arrivesBy(second, deadline)) {
            return;
        }
        CompletableFuture<Block> third = new CompletableFuture<>();
        try {
            if (!refillLock.tryLock(Math.max(0, deadline - ticker.read()), TimeUnit.NANOSECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            // Under the lock, which every installation of a block holds: the second block is still the next one.
            if (closed || prefetch.get() != second || following.get() != null
                    || control.lastsTheStartUpQueue(current.remaining() + Block.sizeIfReady(second))) {
                return;
            }
            following.set(third);
        } finally {
            refillLock.unlock();
        }
        handOff(third);
        arrivesBy(third, deadline);
    }

    /** Waits for a refill until the deadline: whether it brought a block by then. */
    private boolean arrivesBy(CompletableFuture<Block> refill, long deadline) {
        try {
            refill.get(Math.max(0, deadline - ticker.read()), TimeUnit.NANOSECONDS);
            return ticker.read() <= deadline;
        } catch (TimeoutException | ExecutionException e) {
            // Callers wait for this refill, or a fresh one, as for any late refill.
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    void blockLate() {
        control.refillLate();
    }

    @Override
    long refillPoint() {
        return control.refillPoint();
    }

    @Override
    long lateRefills() {
        return control.lateRefills();
    }

    @Override
    boolean nextBlockReady() {
        CompletableFuture<Block> refill = prefetch.get();
        return refill != null && refill.isDone() && !refill.isCompletedExceptionally();
    }

    @Override
    Block obtainNextBlock(Block exhausted, long deadline) {
        for (;;) {
            CompletableFuture<Block> refill = startPrefetch();
            try {
                Block next = refill.get(Math.max(0, deadline - ticker.read()), TimeUnit.NANOSECONDS);
                prefetch.compareAndSet(refill, following.getAndSet(null));
                return next;
            } catch (TimeoutException e) {
                throw timedOut("the background refill is late");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SequenceUnavailableException(name, "interrupted while waiting for the background refill", e);
            } catch (ExecutionException e) {
                prefetch.compareAndSet(refill, following.getAndSet(null));
                Throwable cause = e.getCause();
                if (cause instanceof SequenceExhaustedException) {
                    throw new SequenceExhaustedException(name, settings.maxValue());
                }
                // A refill that gave up on transient errors may have started long before this caller came (an
                // outage that has just ended): while this caller's own deadline leaves time, start a fresh one.
                if (!endedOnTransientErrors(cause) || !new Backoff().fits(ticker.read(), deadline)) {
                    throw new SequenceUnavailableException(name, "the background refill failed: "
                            + cause.getMessage(), cause);
                }
            }
        }
    }

    private static boolean endedOnTransientErrors(Throwable refillFailure) {
        return refillFailure instanceof SequenceUnavailableException
                && refillFailure.getCause() instanceof SequenceStoreException storeFailure
                && storeFailure.isTransient();
    }

    @Override
    long extraRemaining() {
        return Block.sizeIfReady(prefetch.get()) + Block.sizeIfReady(following.get());
    }

    @Override
    void releaseUnused(CloseReport.Collector report, Block block, long firstUnused) {
        Block next = arrivedForRelease(report, prefetch.getAndSet(null));
        Block third = arrivedForRelease(report, following.getAndSet(null));
        if (next != null && next.first == block.end) {
            release(report, firstUnused, next.end);
        } else {
            release(report, firstUnused, block.end);
            if (next != null) {
                release(report, next.first, next.end);
            }
        }
        if (third != null) {
            release(report, third.first, third.end);
        }
    }

    /**
     * The block of a refill that is to be released at close, waiting for it up to the acquire timeout: null if there
     * is none, if it reserved nothing, or if it is still under way (then it is released when it arrives).
     */
    private @Nullable Block arrivedForRelease(CloseReport.Collector report,
            @Nullable CompletableFuture<Block> refill) {
        if (refill == null) {
            return null;
        }
        try {
            return refill.get(timeoutNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            // The refill reserved nothing.
        } catch (TimeoutException e) {
            report.note("the background refill did not finish within the acquire timeout; its block is"
                    + " released when it arrives");
            refill.thenAccept(this::releaseLate);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            report.note("interrupted while waiting for the background refill; its block is released when it"
                    + " arrives");
            refill.thenAccept(this::releaseLate);
        }
        return null;
    }
}
