package dev.seqgen;

/**
 * A sequence whose values are its counter's values mapped by a {@link KeyOrder} other than sequential: every value
 * handed out is {@code keyOrder.key(counter)}. The mapping is a bijection, so the strategy's guarantees on counter
 * values (unique across JVMs, gapless for SYNC, bounded gaps) carry over to the keys; only their order changes.
 * {@link #stats()} stays in counter values (blocks, highest reserved), as the store row and the metrics do.
 * A thin wrapper on the caller's path: one bit reversal per value, no allocation for single values.
 */
final class KeyMappedSequence implements Sequence {

    private final Sequence counter;
    private final KeyOrder keyOrder;

    KeyMappedSequence(Sequence counter, KeyOrder keyOrder) {
        this.counter = counter;
        this.keyOrder = keyOrder;
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
        return keyOrder.key(counter.next());
    }

    @Override
    public long[] nextValues(int count) {
        return keys(counter.nextValues(count));
    }

    @Override
    public long nextInTransaction(Object transaction) {
        return keyOrder.key(counter.nextInTransaction(transaction));
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        return keys(counter.nextValuesInTransaction(transaction, count));
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
        return counter + " (" + keyOrder.externalName() + ")";
    }

    private long[] keys(long[] counters) {
        for (int i = 0; i < counters.length; i++) {
            counters[i] = keyOrder.key(counters[i]);
        }
        return counters;
    }
}
