package dev.seqgen;

import java.util.Locale;

/**
 * How a {@link Sequence} takes values from its store, trading the guarantees a caller gets against the rate one hot
 * counter row sustains; README.md's strategy table compares them (ordering, gaps, crash cost, throughput). Every
 * strategy hands out each value once.
 */
public enum Strategy {

    /** The row is incremented in the caller's transaction ({@link Sequence#nextInTransaction}); gapless. */
    SYNC,

    /** One store transaction per value, committed before it is returned; ordered; a rollback or crash is a gap. */
    ASYNC,

    /** One store transaction per block, reserved by the caller finding it empty; per-JVM order; a crash loses one. */
    BATCH,

    /** As {@link #BATCH}, plus a background refill at the {@link SequenceSettings#adaptive() adaptive} refill point. */
    ASYNC_BATCH;

    /** {@return the name as configuration, metrics and the endpoint write it, such as {@code async-batch}} */
    public String externalName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
