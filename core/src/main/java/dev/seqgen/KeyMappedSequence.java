package dev.seqgen;

/** A SYNC or ASYNC sequence whose values are its counter's mapped by a {@link KeyMapping}; stats stay counters. */
final class KeyMappedSequence extends NamedSequence {

    private final Sequence counter;
    private final KeyMapping mapping;

    KeyMappedSequence(Sequence counter, KeyMapping mapping) {
        super(counter.name(), counter.settings());
        this.counter = counter;
        this.mapping = mapping;
    }

    @Override
    public long next() {
        return mapping.key(counter::next);
    }

    @Override
    public long[] nextValues(int count) {
        return mapping.keys(count, counter::nextValues);
    }

    @Override
    public long nextInTransaction(Object transaction) {
        return mapping.key(() -> counter.nextInTransaction(transaction));
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        return mapping.keys(count, n -> counter.nextValuesInTransaction(transaction, n));
    }

    /** Gives back counter values, not keys: the row counts counters. */
    @Override
    public boolean giveBackInTransaction(Object transaction, long firstUnused, long end) {
        return counter.giveBackInTransaction(transaction, firstUnused, end);
    }

    @Override
    public SequenceStats stats() {
        return counter.stats();
    }

    @Override
    public void close() {
        counter.close();
    }

    Sequence counter() {
        return counter;
    }

    @Override
    public String toString() {
        return counter + " (" + mapping + ")";
    }
}
