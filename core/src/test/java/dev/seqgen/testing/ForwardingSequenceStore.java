package dev.seqgen.testing;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceSettings;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * A store that forwards every operation, the SPI's default methods included, to another: tests extend it and
 * override only what they change (latency, failures, a pause at the right moment), so a wrapped store keeps all
 * its capabilities. One exception: {@link #reserveSized} keeps the SPI's default, which goes through this wrapper's
 * {@link #reserve}, so that a wrapper that overrides {@code reserve} sees every reservation (the wrapped store's view
 * of the queue at its row is not forwarded).
 */
public abstract class ForwardingSequenceStore implements SequenceStore {

    /** The store every operation goes to. */
    protected final SequenceStore delegate;

    /**
     * Wraps a store.
     *
     * @param delegate the store every operation goes to
     */
    protected ForwardingSequenceStore(SequenceStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public CounterKind kind() {
        return delegate.kind();
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        delegate.createSequence(sequence, initialValue);
    }

    @Override
    public void createSequence(String sequence, SequenceSettings settings) {
        delegate.createSequence(sequence, settings);
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        return delegate.reserve(sequence, count, maxValue);
    }

    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        return delegate.reserveInTransaction(transaction, sequence, count, maxValue);
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        return delegate.nextValue(sequence);
    }

    @Override
    public boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        return delegate.giveBackInTransaction(transaction, sequence, expectedNextValue, restoredNextValue);
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        return delegate.giveBack(sequence, expectedNextValue, restoredNextValue);
    }

    @Override
    public boolean keep(String sequence, long first, long end) {
        return delegate.keep(sequence, first, end);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return delegate.takeKept(sequence, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return delegate.takeKept(sequence, count, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
        return delegate.takeKept(sequence, from, count, maxValue);
    }

    @Override
    public List<ReservedRange> keptRanges(String sequence) {
        return delegate.keptRanges(sequence);
    }

    @Override
    public boolean advance(String sequence, long nextValue) {
        return delegate.advance(sequence, nextValue);
    }

    @Override
    public int queuedAt(String sequence) {
        return delegate.queuedAt(sequence);
    }

    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        return delegate.highestCounter(table, column, settings);
    }

    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings,
            java.util.List<Where> where) {
        return delegate.highestCounter(table, column, settings, where);
    }

    @Override
    public OptionalLong highestFormatted(String table, String column, java.util.List<Where> where,
            java.util.function.ToLongFunction<String> counterOf) {
        return delegate.highestFormatted(table, column, where, counterOf);
    }

    @Override
    public boolean readsApplicationTables(String platform) {
        return delegate.readsApplicationTables(platform);
    }

    @Override
    public boolean variableReservationSizes() {
        return delegate.variableReservationSizes();
    }

    @Override
    public @Nullable Class<?> transactionType() {
        return delegate.transactionType();
    }

    @Override
    public Optional<SqlTable> sqlTable() {
        return delegate.sqlTable();
    }
}
