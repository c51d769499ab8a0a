package dev.seqgen.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A reserved block {@code [first, end)} and the cursor that hands its values out.
 *
 * <p>The cursor only moves forward, by {@code getAndAdd}: every claim gets a distinct cursor value, so a
 * value below {@code end} is handed to exactly one caller without a lock. Claims on an exhausted block push
 * the cursor past {@code end}; those values are never handed out (at most one per racing caller, and the
 * block is abandoned anyway). {@link #drain()} moves the cursor to {@code end} in one atomic step, after
 * which no claim can succeed, and returns the first value nobody got.
 */
final class Block {

    /** A block with no values: claims on it always fail, which sends callers to the slow path. */
    static final Block EMPTY = new Block(0, 0, Long.MIN_VALUE);

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
    /** The value whose claim starts the background refill; {@link Long#MIN_VALUE} for none. */
    final long triggerAt;

    @SuppressWarnings("unused") // accessed through CURSOR
    private volatile long cursor;

    Block(long first, long end, long triggerAt) {
        this.first = first;
        this.end = end;
        this.triggerAt = triggerAt;
        this.cursor = first;
    }

    /**
     * Claims {@code n} consecutive cursor positions.
     *
     * @return the first claimed position; the caller owns {@code [v, min(v + n, end))}
     */
    long claim(long n) {
        return (long) CURSOR.getAndAdd(this, n);
    }

    /** Ends the block for good and returns the first value nobody was handed. */
    long drain() {
        return Math.min((long) CURSOR.getAndSet(this, end), end);
    }

    /** Returns the number of values handed out so far. */
    long issued() {
        return Math.min(cursor, end) - first;
    }

    /** Returns the number of values still in the block. */
    long remaining() {
        return end - Math.min(cursor, end);
    }
}
