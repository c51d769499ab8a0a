package dev.seqgen.modelcheck;

import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A planted defect: a store whose reservation reads the row and writes it back in two steps with no lock, as
 * an UPDATE without a row lock or a compare-and-set would. Two generators that reserve at once can get the
 * same range; the model checker must find that interleaving and fail, which shows that the scenarios would
 * catch a duplicate.
 */
final class RacyStore implements SequenceStore {

    private final ConcurrentHashMap<String, AtomicLong> rows = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return "racy";
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        rows.putIfAbsent(sequence, new AtomicLong(initialValue));
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        AtomicLong row = rows.get(sequence);
        long next = row.get();
        if (next > maxValue) {
            throw new SequenceExhaustedException(sequence, maxValue);
        }
        long end = next + Math.min(count, maxValue - next + 1);
        row.set(end);
        return new ReservedRange(next, end);
    }

    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        throw new UnsupportedOperationException("no transactions in the racy store");
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        AtomicLong row = rows.get(sequence);
        return row == null ? OptionalLong.empty() : OptionalLong.of(row.get());
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        return rows.get(sequence).compareAndSet(expectedNextValue, restoredNextValue);
    }
}
