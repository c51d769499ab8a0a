package dev.seqgen;

import java.util.Arrays;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;

/**
 * How counter values become keys when the {@link KeyOrder} is not sequential: {@code keyOrder.key(counter)}, passing
 * over counters whose key is in the skip range (a gap, never a duplicate). A bijection, so the strategy's guarantees
 * carry over. Applied inside {@link BlockSequence#next()}, and by {@link KeyMappedSequence} for SYNC and ASYNC.
 */
final class KeyMapping {

    final KeyOrder keyOrder;
    final KeyRange skip;

    private KeyMapping(KeyOrder keyOrder, KeyRange skip) {
        this.keyOrder = keyOrder;
        this.skip = skip;
    }

    /** The mapping of the settings, or null for sequential values. */
    static @Nullable KeyMapping of(SequenceSettings settings) {
        return settings.keyOrder() == KeyOrder.SEQUENTIAL ? null
                : new KeyMapping(settings.keyOrder(), settings.skipRange());
    }

    /** The key of the next counter from {@code counters} outside the skip range (BlockSequence inlines this). */
    long key(LongSupplier counters) {
        long key;
        do {
            key = keyOrder.key(counters.getAsLong());
        } while (skip.contains(key));
        return key;
    }

    /** {@code count} keys, taking counters until enough lie outside the skip range. */
    long[] keys(int count, IntFunction<long[]> counters) {
        long[] keys = keys(counters.apply(count));
        while (keys.length < count) {
            long[] more = keys(counters.apply(count - keys.length));
            keys = LongStream.concat(Arrays.stream(keys), Arrays.stream(more)).toArray();
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

    @Override
    public String toString() {
        return keyOrder.externalName() + (skip.isEmpty() ? "" : ", skipping " + skip);
    }
}
