package dev.seqgen;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A reserved block {@code [first, end)} and the cursor that hands its values out: an offset from {@code first} that
 * only moves forward by {@code getAndAdd}, so each offset below {@code size} goes to exactly one caller without a lock
 * and claims past it get nothing. Being an offset, it cannot overflow for a block ending at {@link Long#MAX_VALUE}.
 */
final class Block {

    /** Claims on it always fail, which sends callers to the slow path. */
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

    /** Claims {@code n} offsets; returns the first, {@code i}: the caller owns {@code [i, min(i + n, size))}. */
    long claim(long n) {
        return (long) CURSOR.getAndAdd(this, n);
    }

    /** Ends the block for good and returns the first value nobody was handed. */
    long drain() {
        return first + Math.min((long) CURSOR.getAndSet(this, size), size);
    }

    long issued() {
        return Math.min(cursor, size);
    }

    long remaining() {
        return size - issued();
    }

    static long sizeIfReady(@Nullable CompletableFuture<Block> refill) {
        return refill == null || !refill.isDone() || refill.isCompletedExceptionally() ? 0 : refill.join().size;
    }
}
