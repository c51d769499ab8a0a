package dev.seqgen;

import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * How a sequence's counter values become the values it hands out when its {@link KeyOrder} is not sequential:
 * every value is {@code keyOrder.key(counter)}, and a counter whose key falls in the {@link SequenceSettings#skipRange()
 * skip range} is passed over. The mapping is a bijection, so the strategy's guarantees on counter values (unique
 * across JVMs, gapless for SYNC, bounded gaps) carry over to the keys; only their order changes. A passed-over
 * counter stays unused: a gap in the counter, never a duplicate key. The range holds at most half of the keys, and
 * bit reversal spreads any range's images evenly over the counters, so the expected number of counters taken per
 * key stays at most two, and is close to one for the ranges kept for existing keys.
 *
 * <p>BATCH and ASYNC_BATCH apply it inside their own {@code next()} ({@link BlockSequence}); SYNC and ASYNC, whose
 * every value is a store round trip, through the {@link KeyMappedSequence} wrapper.
 */
final class KeyMapping {

    final KeyOrder keyOrder;
    final KeyRange skip;

    private KeyMapping(KeyOrder keyOrder, KeyRange skip) {
        this.keyOrder = keyOrder;
        this.skip = skip;
    }

    /** Returns the mapping of the settings, or {@code null} for sequential values (the counter values themselves). */
    static @Nullable KeyMapping of(SequenceSettings settings) {
        return settings.keyOrder() == KeyOrder.SEQUENTIAL ? null
                : new KeyMapping(settings.keyOrder(), settings.skipRange());
    }

    /**
     * Returns the key of the next counter from {@code counters} whose key lies outside the skip range. (BlockSequence
     * writes this loop out on its hot path, without a supplier.)
     *
     * @param counters hands out counter values
     */
    long key(LongSupplier counters) {
        long key;
        do {
            key = keyOrder.key(counters.getAsLong());
        } while (skip.contains(key));
        return key;
    }

    /**
     * Returns {@code count} keys, taking counters from {@code counters} until enough keys lie outside the skip range.
     *
     * @param counters hands out the given number of counter values; its arrays are mapped in place
     */
    long[] keys(int count, IntFunction<long[]> counters) {
        long[] keys = keys(counters.apply(count));
        while (keys.length < count) {
            long[] more = keys(counters.apply(count - keys.length));
            long[] all = Arrays.copyOf(keys, keys.length + more.length);
            System.arraycopy(more, 0, all, keys.length, more.length);
            keys = all;
        }
        return keys;
    }

    /** Maps the counters to keys in place, leaving out the keys in the skip range (then in a shorter array). */
    private long[] keys(long[] counters) {
        int kept = 0;
        for (long counter : counters) {
            long key = keyOrder.key(counter);
            if (!skip.contains(key)) {
                counters[kept++] = key;
            }
        }
        return kept == counters.length ? counters : Arrays.copyOf(counters, kept);
    }

    /** Returns {@code bit-reversed}, or {@code bit-reversed, skipping min..max}: for a sequence's description. */
    @Override
    public String toString() {
        return keyOrder.externalName() + (skip.isEmpty() ? "" : ", skipping " + skip);
    }
}
