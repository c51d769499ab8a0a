package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.spi.SequenceStore;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The block hand-off shared by BATCH and ASYNC_BATCH.
 *
 * <p>Design (docs/design.md#block-hand-off): {@code current} is a volatile reference to a fully built {@link Block};
 * a caller claims a value with one {@code getAndAdd} on its cursor, no lock. When the block is exhausted, callers
 * queue on {@code refillLock} (timed by the acquire timeout); only the holder writes {@code current}, so blocks are
 * installed one at a time and never lost. The one caller that claims {@code triggerAt} starts ASYNC_BATCH's refill.
 * Close installs {@link Block#EMPTY} under the lock and drains the old block.
 */
abstract class BlockSequence extends AbstractSequence {

    final ReentrantLock refillLock = new ReentrantLock();

    /** The block values are taken from; written only while holding refillLock. */
    volatile Block current = Block.EMPTY;

    /** Values handed out from blocks that are no longer current; written only while holding refillLock. */
    final AtomicLong retiredIssued = new AtomicLong();

    /**
     * Values a {@link #nextValues} call claimed before it failed (closed, timed out, exhausted): handed to
     * nobody, so counted as discarded rather than issued.
     */
    private final LongAdder claimedByFailedCalls = new LongAdder();

    /** Sizes blocks and places ASYNC_BATCH's refill point. */
    final RefillControl control;

    /** Maps counter values to the values handed out; {@code null} for sequential values. */
    private final @Nullable KeyMapping mapping;
    /** Whether the mapping has a skip range: read on the hot path without following {@link #mapping}. */
    private final boolean skipping;

    BlockSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        super(name, settings, store, ticker);
        this.control = new RefillControl(settings, store.variableReservationSizes());
        this.mapping = KeyMapping.of(settings);
        this.skipping = mapping != null && !mapping.skip.isEmpty();
        assert mapping == null || mapping.keyOrder == KeyOrder.BIT_REVERSED : "next() maps with BIT_REVERSED only";
    }

    @Override
    public final long next() {
        // Chosen from final fields, so only the reversal waits for the add (docs/design.md#block-hand-off).
        if (mapping == null) {
            return nextCounter();
        }
        return skipping ? nextKey(mapping.skip) : KeyOrder.BIT_REVERSED.key(nextCounter());
    }

    /** The hot path: the next counter value, from the block in hand when it has one. */
    private long nextCounter() {
        Block block = current;
        long offset = block.claim(1);
        if (offset < block.size) {
            if (offset == block.triggerAt) {
                lowWatermarkReached();
            }
            return block.first + offset;
        }
        return nextSlow();
    }

    /** {@link KeyMapping#key}'s loop, written out so that the hot path takes no supplier. */
    private long nextKey(KeyRange skip) {
        long key;
        do {
            key = KeyOrder.BIT_REVERSED.key(nextCounter());
        } while (skip.contains(key));
        return key;
    }

    @Override
    public final long[] nextValues(int count) {
        requireCount(count);
        return mapping == null ? counters(count) : mapping.keys(count, this::counters);
    }

    /** Returns {@code count} counter values: from the block in hand, and from the next ones when it runs out. */
    private long[] counters(int count) {
        long[] values = new long[count];
        int filled = 0;
        while (filled < count) {
            Block block = current;
            int wanted = count - filled;
            long offset = block.claim(wanted);
            if (offset < block.size) {
                long got = Math.min(wanted, block.size - offset);
                for (long i = offset; i < offset + got; i++) {
                    values[filled++] = block.first + i;
                }
                if (block.triggerAt >= offset && block.triggerAt < offset + got) {
                    lowWatermarkReached();
                }
            } else {
                long value;
                try {
                    value = nextSlow();
                } catch (RuntimeException e) {
                    claimedByFailedCalls.add(filled);
                    discard(filled);
                    throw e;
                }
                values[filled++] = value;
            }
        }
        return values;
    }

    /** Called by the one caller that claims a block's trigger position. */
    abstract void lowWatermarkReached();

    /** Whether {@link #obtainNextBlock} can return without waiting for the store. */
    abstract boolean nextBlockReady();

    /**
     * Called holding refillLock when {@code exhausted} is still current: returns the block to install.
     *
     * @param deadline the ticker reading by which the caller must have its value
     */
    abstract Block obtainNextBlock(Block exhausted, long deadline);

    private long nextSlow() {
        SequenceMetricsTracker.Span[] wait = {null};
        try {
            long value = nextSlow(wait);
            if (wait[0] != null) {
                wait[0].end(null);
            }
            return value;
        } catch (RuntimeException | Error e) {
            if (wait[0] != null) {
                wait[0].end(e);
            }
            throw e;
        }
    }

    private long nextSlow(SequenceMetricsTracker.@Nullable Span[] wait) {
        long start = ticker.read();
        long deadline = start + timeoutNanos;
        // A wait: blocking on another caller's refill or on the store, not installing a block already there.
        boolean waited = false;
        try {
            if (!refillLock.tryLock()) {
                waited = true;
                wait[0] = tracker.start(SequenceMetricsTracker.Operation.WAIT, null);
                if (!refillLock.tryLock(timeoutNanos, TimeUnit.NANOSECONDS)) {
                    recordWait(start);
                    throw timedOut("waited for another caller's refill");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SequenceUnavailableException(name, "interrupted while waiting for a refill", e);
        }
        try {
            for (;;) {
                checkOpen();
                Block block = current;
                long offset = block.claim(1);
                if (offset < block.size) {
                    if (offset == block.triggerAt) {
                        lowWatermarkReached();
                    }
                    return block.first + offset;
                }
                if (!nextBlockReady()) {
                    // The first block is not a late refill (it would widen the adaptive margin at every start).
                    if (block != Block.EMPTY) {
                        blockLate();
                    }
                    waited = true;
                    if (wait[0] == null) {
                        wait[0] = tracker.start(SequenceMetricsTracker.Operation.WAIT, null);
                    }
                }
                Block next = obtainNextBlock(block, deadline);
                retiredIssued.addAndGet(block.issued());
                current = next;
            }
        } finally {
            refillLock.unlock();
            if (waited) {
                recordWait(start);
            }
        }
    }

    /** Installs the first block under the lock, as the slow path would, without taking a value from it. */
    @Override
    final void awaitFirstBlock(long deadline) {
        try {
            if (!refillLock.tryLock(Math.max(0, deadline - ticker.read()), TimeUnit.NANOSECONDS)) {
                throw new SequenceUnavailableException(name, "a caller's refill held the sequence past the warm-up's"
                        + " deadline", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SequenceUnavailableException(name, "interrupted while waiting for the first block", e);
        }
        try {
            checkOpen();
            if (current == Block.EMPTY) {
                current = obtainNextBlock(Block.EMPTY, deadline);
            }
        } finally {
            refillLock.unlock();
        }
        awaitSecondBlock(deadline);
    }

    /** Called by the warm-up outside the lock, the first block in hand, until {@code deadline}: BATCH takes no more. */
    void awaitSecondBlock(long deadline) {
    }

    /** Called holding refillLock when the block is empty and the next one not there: a late refill. */
    void blockLate() {
    }

    @Override
    final boolean sizesByQueue() {
        return control.sizesByQueue();
    }

    @Override
    final long sizeForQueue(long count, long waitedNanos, int ahead, int behind) {
        return control.sizeForQueue(count, waitedNanos, ahead, behind);
    }

    /** Returns the size of the next reservation: the configured block size, or what the control loop steers to. */
    final long sizeNextReservation() {
        return control.beforeReservation(ticker.read(), issued());
    }

    @Override
    final long nextBlockSize() {
        return control.blockSize();
    }

    @Override
    final Block blockInHand() {
        return current;
    }

    @Override
    final long issued() {
        return retiredIssued.get() + current.issued() - claimedByFailedCalls.sum();
    }

    @Override
    final @Nullable CloseReport closeAndReport() {
        refillLock.lock();
        try {
            if (closed) {
                return null;
            }
            closed = true;
            Block block = current;
            current = Block.EMPTY;
            long firstUnused = block.drain();
            retiredIssued.addAndGet(firstUnused - block.first);
            CloseReport.Collector report = new CloseReport.Collector(name, settings.strategy());
            releaseUnused(report, block, firstUnused);
            closeTracker();
            return report.build(issued());
        } finally {
            refillLock.unlock();
        }
    }

    @Override
    final boolean takesKeptRanges() {
        return true;
    }

    @Override
    final String firstBlockReason() {
        return control.firstBlockReason();
    }

    @Override
    public String toString() {
        return mapping == null ? super.toString() : super.toString() + " (" + mapping + ")";
    }

    /** Releases {@code [firstUnused, block.end)} and any next block at close ({@link #release}). */
    abstract void releaseUnused(CloseReport.Collector report, Block block, long firstUnused);
}
