package dev.seqgen;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Exponential pauses with jitter between attempts after transient store errors; one per operation, not thread-safe. */
final class Backoff {

    /** The first pause after a transient store error; it doubles on each further error. */
    static final long INITIAL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** The longest pause between two attempts. */
    static final long MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private long next = INITIAL_NANOS;

    /** Whether the next pause ends before {@code deadline}, so that one more attempt fits. */
    boolean fits(long now, long deadline) {
        return now + next - deadline < 0;
    }

    /** Pauses for half to all of the next interval, then doubles it; throws (flag kept) if interrupted. */
    void pause(String sequenceName) {
        LockSupport.parkNanos(next / 2 + ThreadLocalRandom.current().nextLong(next / 2 + 1));
        next = Math.min(next * 2, MAX_NANOS);
        if (Thread.interrupted()) {
            Thread.currentThread().interrupt();
            throw new SequenceUnavailableException(sequenceName, "interrupted while retrying the store", null);
        }
    }
}
