package dev.seqgen.jmh;

import java.util.concurrent.locks.LockSupport;

/** Waits without spinning for at least a given time, which is how the benchmarks stand in for I/O and work. */
public final class Pause {

    private Pause() {
    }

    /**
     * Parks the calling thread for at least {@code nanos}; parks again when {@code parkNanos} returns early.
     *
     * @param nanos how long to wait; nothing happens if it is 0 or less
     */
    public static void nanos(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
