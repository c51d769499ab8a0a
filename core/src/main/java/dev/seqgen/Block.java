package dev.seqgen;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * A reserved block {@code [first, end)} and the cursor that hands its values out.
 *
 * <p>The cursor is an offset from {@code first} that only moves forward, by {@code getAndAdd}: every claim
 * gets a distinct offset, so an offset below {@code size} is handed to exactly one caller without a lock.
 * Claims on an exhausted block push the cursor past {@code size}; those offsets are never handed out. The
 * cursor is an offset, not a value, so it cannot overflow even for a block that ends at
 * {@link Long#MAX_VALUE}. {@link #drain()} moves the cursor to {@code size} in one atomic step, after which
 * no claim can succeed, and returns the first value nobody got.
 */
final class Block {

    /** A block with no values: claims on it always fail, which sends callers to the slow path. */
    static final Block EMPTY = new Block(0, 0, -1);

    private static final VarHandle CURSOR;

    static {
        try {
            CURSOR = MethodHandles.lookup().findVarHandle(Block.class, "cursor", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long first;
    final long end;
    /** {@code end - first}. */
    final long size;
    /** The offset whose claim starts the background refill; -1 for none. */
    final long triggerAt;

    @SuppressWarnings("unused") // accessed through CURSOR
    private volatile long cursor;

    Block(long first, long end, long triggerAt) {
        this.first = first;
        this.end = end;
        this.size = end - first;
        this.triggerAt = triggerAt;
    }

    /**
     * Claims {@code n} consecutive offsets.
     *
     * @return the first claimed offset; the caller owns the values at offsets {@code [i, min(i + n, size))}
     */
    long claim(long n) {
        return (long) CURSOR.getAndAdd(this, n);
    }

    /** Ends the block for good and returns the first value nobody was handed. */
    long drain() {
        return first + Math.min((long) CURSOR.getAndSet(this, size), size);
    }

    /** Returns the number of values handed out so far. */
    long issued() {
        return Math.min(cursor, size);
    }

    /**
     * Returns the size of a refill's block if it has arrived, otherwise 0: the values a prefetched block adds to
     * those in hand.
     */
    static long sizeIfReady(java.util.concurrent.@Nullable CompletableFuture<Block> refill) {
        if (refill == null || !refill.isDone() || refill.isCompletedExceptionally()) {
            return 0;
        }
        return refill.join().size;
    }

    /** Returns the number of values still in the block. */
    long remaining() {
        return size - Math.min(cursor, size);
    }
}
