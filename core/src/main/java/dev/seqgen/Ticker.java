package dev.seqgen;

/** A source of monotonic nanosecond time, injected so that timing logic can be tested with a fake clock. */
@FunctionalInterface
public interface Ticker {

    /** {@return the current time in nanoseconds, only meaningful as a difference to another reading} */
    long read();

    /** {@return the ticker backed by {@link System#nanoTime()}} */
    static Ticker systemTicker() {
        return SystemTicker.INSTANCE;
    }
}

enum SystemTicker implements Ticker {
    INSTANCE;

    @Override
    public long read() {
        return System.nanoTime();
    }
}
