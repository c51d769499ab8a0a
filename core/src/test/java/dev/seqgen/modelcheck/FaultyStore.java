package dev.seqgen.modelcheck;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store over another that fails on a fixed rhythm, so that a model-checked scenario meets every kind of
 * failure at some interleaving: the 3rd, 6th, ... reservation fails transiently before it takes anything,
 * the 4th, 8th, ... takes its range and then fails (the acknowledgement lost on the way back, so the range is
 * gone from the row but the generator never sees it), and every 2nd give-back is applied and then reported as
 * failed.
 */
final class FaultyStore implements SequenceStore {

    private final SequenceStore store;
    private final AtomicInteger reservations = new AtomicInteger();
    private final AtomicInteger giveBacks = new AtomicInteger();

    FaultyStore(SequenceStore store) {
        this.store = store;
    }

    @Override
    public String name() {
        return "faulty " + store.name();
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        store.createSequence(sequence, initialValue);
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        int call = reservations.incrementAndGet();
        if (call % 3 == 0) {
            throw new SequenceStoreException("injected transient failure before the reservation", null, true);
        }
        ReservedRange range = store.reserve(sequence, count, maxValue);
        if (call % 4 == 0) {
            throw new SequenceStoreException("injected lost acknowledgement of " + range, null, true);
        }
        return range;
    }

    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        return store.reserveInTransaction(transaction, sequence, count, maxValue);
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        return store.nextValue(sequence);
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        boolean given = store.giveBack(sequence, expectedNextValue, restoredNextValue);
        if (given && giveBacks.incrementAndGet() % 2 == 0) {
            throw new SequenceStoreException("injected lost acknowledgement of a give-back", null, true);
        }
        return given;
    }
}
