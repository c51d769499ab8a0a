package dev.seqgen;

import java.util.Locale;

/**
 * How a sequence's counter values become the values it hands out: the {@link Setting#KEY_ORDER key-order}
 * setting. The counter (its row, blocks, give-back, maximum value, adoption) always counts 1, 2, 3, …; only what
 * {@link Sequence#next()} and the Hibernate generators return is mapped.
 */
public enum KeyOrder {

    /** The counter value itself: 1, 2, 3, … (the default). */
    SEQUENTIAL,

    /**
     * The counter value with its 63 low bits reversed, as Cloud Spanner's {@code bit_reversed_positive}
     * sequences do: a bijection of the positive {@code long} range, so distinct counters give distinct keys,
     * positive and never 0 for a counter of at least 1, and consecutive counters land far apart in the key space
     * (1 gives 2<sup>62</sup>, 2 gives 2<sup>61</sup>, 3 gives 2<sup>62</sup> + 2<sup>61</sup>). For primary keys
     * of databases that split their key space by ranges, where increasing keys make one split hot.
     */
    BIT_REVERSED;

    /**
     * Maps a counter value to the value handed out.
     *
     * @param counter a counter value, from 0 to {@link Long#MAX_VALUE}
     * @return the value handed out
     */
    public long key(long counter) {
        return this == SEQUENTIAL ? counter : Long.reverse(counter) >>> 1;
    }

    /**
     * Maps a value handed out back to its counter value: the inverse of {@link #key(long)} (bit reversal is its own
     * inverse), for reading which counters a table's existing keys used.
     *
     * @param key a value from 0 to {@link Long#MAX_VALUE}
     * @return the counter value whose key it is
     */
    public long counter(long key) {
        return key(key);
    }

    /** {@return the name as configuration spells it: {@code sequential}, {@code bit-reversed}} */
    public String externalName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
