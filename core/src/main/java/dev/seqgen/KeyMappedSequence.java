package dev.seqgen;

/**
 * A sequence whose values are its counter's values mapped by a {@link KeyOrder} other than sequential: every value
 * handed out is {@code keyOrder.key(counter)}. The mapping is a bijection, so the strategy's guarantees on counter
 * values (unique across JVMs, gapless for SYNC, bounded gaps) carry over to the keys; only their order changes.
 * {@link #stats()} stays in counter values (blocks, highest reserved), as the store row and the metrics do.
 * A thin wrapper on the caller's path: one bit reversal per value, no allocation for single values.
 *
 * <p>With a {@link SequenceSettings#skipRange() skip range}, a counter whose key falls in the range is passed over
 * and the next one taken: that counter value stays unused (a gap in the counter, never a duplicate key). The
 * range holds at most half of the keys, and bit reversal spreads any range's images evenly over the counters, so
 * the expected number of counters taken per key stays at most two, and is close to one for the ranges kept for
 * existing keys.
 */
final class KeyMappedSequence implements Sequence {

    private final Sequence counter;
    private final KeyOrder keyOrder;
    private final KeyRange skip;

    KeyMappedSequence(Sequence counter, KeyOrder keyOrder, KeyRange skip) {
        this.counter = counter;
        this.keyOrder = keyOrder;
        this.skip = skip;
    }

    @Override
    public String name() {
        return counter.name();
    }

    @Override
    public Strategy strategy() {
        return counter.strategy();
    }

    @Override
    public SequenceSettings settings() {
        return counter.settings();
    }

    @Override
    public long next() {
        long key;
        do {
            key = keyOrder.key(counter.next());
        } while (skip.contains(key));
        return key;
    }

    @Override
    public long[] nextValues(int count) {
        long[] keys = keys(counter.nextValues(count));
        while (keys.length < count) {
            keys = append(keys, keys(counter.nextValues(count - keys.length)));
        }
        return keys;
    }

    @Override
    public long nextInTransaction(Object transaction) {
        long key;
        do {
            key = keyOrder.key(counter.nextInTransaction(transaction));
        } while (skip.contains(key));
        return key;
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        long[] keys = keys(counter.nextValuesInTransaction(transaction, count));
        while (keys.length < count) {
            keys = append(keys, keys(counter.nextValuesInTransaction(transaction, count - keys.length)));
        }
        return keys;
    }

    @Override
    public SequenceStats stats() {
        return counter.stats();
    }

    @Override
    public void close() {
        counter.close();
    }

    @Override
    public String toString() {
        return counter + " (" + keyOrder.externalName() + (skip.isEmpty() ? "" : ", skipping " + skip) + ")";
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
        return kept == counters.length ? counters : java.util.Arrays.copyOf(counters, kept);
    }

    private static long[] append(long[] head, long[] tail) {
        long[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }
}
