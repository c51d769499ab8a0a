package dev.seqgen;

import java.util.Locale;

/**
 * How a sequence's counter values become the values it hands out (the {@link Setting#KEY_ORDER key-order} setting):
 * the counter (row, blocks, give-back, maximum, adoption) counts 1, 2, 3, …; only the values handed out are mapped.
 */
public enum KeyOrder {

    /** The counter value itself: 1, 2, 3, … (the default). */
    SEQUENTIAL,

    /**
     * The counter value with its 63 low bits reversed (a bijection; 1 gives 2<sup>62</sup>), as Cloud Spanner's
     * {@code bit_reversed_positive}: for databases that split their key space by ranges, where increasing keys make one
     * split hot.
     */
    BIT_REVERSED;

    /** {@return the value handed out for a counter value from 0 to {@link Long#MAX_VALUE}} */
    public long key(long counter) {
        return this == SEQUENTIAL ? counter : Long.reverse(counter) >>> 1;
    }

    /** {@return the counter value whose key this is}: the inverse of {@link #key(long)}. */
    public long counter(long key) {
        return key(key);
    }

    /** {@return the name as configuration spells it: {@code sequential}, {@code bit-reversed}} */
    public String externalName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
