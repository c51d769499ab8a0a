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
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * {@link Strategy#ASYNC_BATCH}: BATCH plus a background refill, so callers wait only when the refill is late.
 * Unique; ordered per JVM only; not gapless: a crash loses the blocks in hand (two, or three after a warm-up's third).
 *
 * <p>Background path (docs/design.md#background-refill): {@code prefetch} holds at most one refill, set by a CAS from
 * null or from a failed refill, so refills never overlap. It is started by the caller that claims the trigger offset
 * or by a slow-path caller that finds none usable; only the {@code refillLock} holder takes a ready block out (CAS to
 * null, then publish). Callers wait with a timed get within the acquire timeout.
 */
final class AsyncBatchSequence extends BlockSequence {

    private final Executor executor;
    private final AtomicReference<@Nullable CompletableFuture<Block>> prefetch = new AtomicReference<>();
    /** A third block the warm-up reserved; moves into prefetch when the second leaves it. Set under refillLock. */
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
        // Already published: any Throwable here must complete it, or later callers would wait for it forever.
        Object caller = tracker.captureContext();
        long askedAt = ticker.read(); // the refill time includes the executor's queueing
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
            // Claiming this offset leaves the refill point in the block (0 for a block shorter than it).
            long arrived = ticker.read();
            long refillPoint = control.afterReservation(range.count(), arrived - askedAt, arrived, issued());
            long triggerAt = Math.max(0, range.count() - 1 - refillPoint);
            if (refillsFailing) {
                refillsFailing = false;
                LOG.log(Level.INFO, "sequence '" + name + "': background refills work again");
            }
            refill.complete(new Block(range.first(), range.end(), triggerAt));
        } catch (Throwable e) {
            // One warning per outage; a refill that finds the sequence closed is no outage.
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
     * Watches the queue while the fleet arrives, then waits until the deadline for the second block if the first does
     * not last the queue, and a third ({@link #following}) if two do not.
     */
    @Override
    void awaitSecondBlock(long deadline) {
        watchQueue(deadline, () -> control.firstBlockOutlastsQueue(current.remaining()));
        if (control.firstBlockOutlastsQueue(current.remaining())) {
            return;
        }
        CompletableFuture<Block> second = startPrefetch();
        if (!arrivesBy(second, deadline)) {
            return;
        }
        watchQueue(deadline, () -> control.lastsTheStartUpQueue(current.remaining() + Block.sizeIfReady(second)));
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

    /**
     * Looks at the queue behind the last block sized by it every few of the row's transactions while it grows (a fleet
     * still arriving) and the blocks in hand still {@code last} it, until the deadline: they are then weighed against
     * the longest queue seen, and the next block is asked for as soon as they do not last it.
     */
    private void watchQueue(long deadline, BooleanSupplier last) {
        long pause = control.lookInterval();
        // An interrupted warm-up stops looking (and stays interrupted): parkNanos would no longer wait between looks.
        Thread thread = Thread.currentThread();
        while (pause > 0 && ticker.read() + pause <= deadline && last.getAsBoolean() && !thread.isInterrupted()) {
            LockSupport.parkNanos(pause);
            if (!control.queueGrew(store.queuedAt(name))) {
                return;
            }
        }
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
                // A refill that gave up on transient errors may predate this caller: retry within its deadline.
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

    /** The refill's block, awaited up to the acquire timeout; null if none or failed, or late (released on arrival). */
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
