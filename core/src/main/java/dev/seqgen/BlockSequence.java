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
 * <pre>
 * Design
 *
 * State: one volatile reference, {@code current}, to an immutable-bounds {@link Block} whose cursor (an
 * offset from the block's first value) is advanced with getAndAdd. A block is published by a volatile write of {@code current} only after it is
 * fully built, so every reader that sees the reference sees its bounds.
 *
 * Fast path (no lock, no allocation): read current, claim(1). An offset below size is this caller's value
 * and no other caller can get it, because getAndAdd hands every cursor position out once. For
 * ASYNC_BATCH, the one caller whose offset equals the block's triggerAt starts the background refill:
 * exactly one caller per block sees that position, so no flag or CAS is needed to elect it.
 *
 * Slow path (the block is exhausted): callers queue on refillLock with tryLock(acquire-timeout), so at
 * most one of them talks to the store (BATCH) or installs the prefetched block (ASYNC_BATCH) while the
 * others wait, and nobody waits longer than the acquire timeout. Holding the lock, a caller re-reads
 * current: if another caller has already installed a new block it simply claims from it; otherwise it
 * obtains the next block, retires the old one and publishes the new one.
 *
 * Only the lock holder writes current, so blocks are installed one at a time and never lost. Values are
 * increasing per JVM in the order blocks were reserved, but threads racing on one block may return
 * them out of order, and other JVMs hold other blocks: BATCH and ASYNC_BATCH are not ordered globally.
 *
 * Keys (key-order bit-reversed): next() maps the claimed counter value itself instead of leaving it to a
 * wrapper. At one thread, the atomic add (a locked instruction) does not start before the older instructions
 * are done, so whatever depends on the previous add's result, or on a load issued after it, lies on the path
 * between two adds: a wrapper's load of its delegate added about as much as the reversal. Here the only work
 * after the add is the reversal of its result (and, with a skip range, the test of the key); which of the three
 * paths to take is read from final fields of this sequence, independent of the add. BIT_REVERSED is the one key
 * order besides SEQUENTIAL, named as a constant so that the compiler reduces key() to the reversal.
 *
 * Close takes the lock, installs the EMPTY block (so every later claim fails and reaches checkOpen in the
 * slow path), and drains the old block with getAndSet: values below the drained cursor were handed out,
 * the rest (and a next block already reserved) are released: given back to the row with a compare-and-set when
 * nobody reserved after us, otherwise kept for the fleet, for the store to hand out again as another instance's
 * first block (AbstractSequence, "Release at close"). A sequence's first reservation takes such a kept range
 * when the store has one, the lowest, split to the size of the first block when it is larger: only the first,
 * so that the values of this JVM stay increasing.
 * </pre>
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

    /** Sizes blocks and places ASYNC_BATCH's refill point (see its design comment). */
    final RefillControl control;

    /** Maps counter values to the values handed out; {@code null} for sequential values (see the design comment). */
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
        // The path is chosen from final fields, before the atomic add: only the mapping of the value itself waits
        // for the add's result (see the design comment).
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

    /**
     * Returns the key of the next counter value whose key is not in {@code skip}: {@link KeyMapping#key}'s loop,
     * written out so that the hot path takes no supplier.
     */
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
        // The wait is observed from the moment the caller finds it must block until it has a value or fails.
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
        // A wait is counted when the caller blocks: on another caller's refill (a contended lock) or on the
        // store. Installing a prefetched block that is already there is not a wait.
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
                    // The first block (the sequence has never held one) is not a refill that came late: counting it
                    // would report a late refill at every start and widen the adaptive margin for nothing.
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

    /**
     * Installs the first block without taking a value from it, as the slow path would for the first caller: the
     * lock, then the block from {@link #obtainNextBlock} (ASYNC_BATCH's first background refill, BATCH's first
     * reservation). A caller that comes meanwhile waits on the lock as on any refill, within its acquire timeout.
     */
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

    /**
     * Called by the warm-up once the first block is in hand, outside the lock: ASYNC_BATCH takes its second block
     * before the warm-up returns (see {@link RefillControl}, "The first block and the start-up queue"); BATCH, whose
     * blocks are reserved by the caller that needs one, takes none.
     *
     * @param deadline the ticker reading by which the warm-up must return
     */
    void awaitSecondBlock(long deadline) {
    }

    /**
     * Called holding refillLock by the caller that finds the block in hand empty and the next block not there:
     * for ASYNC_BATCH, a refill that came late.
     */
    void blockLate() {
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

    /**
     * Releases what is left in hand at close ({@code [firstUnused, block.end)} and a next block), each range back to
     * the row, else kept for the fleet, else lost (see {@link AbstractSequence}'s release), into the report.
     */
    abstract void releaseUnused(CloseReport.Collector report, Block block, long firstUnused);
}
