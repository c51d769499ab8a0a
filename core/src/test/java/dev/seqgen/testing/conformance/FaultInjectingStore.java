package dev.seqgen.testing.conformance;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;
import dev.seqgen.testing.ForwardingSequenceStore;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real store with crashes injected between the steps of a stop and of a start, as an instance killed there would
 * leave them: every give-back that moved the row, every range kept and every kept range taken alternately fails
 * before the store did it and after the store committed it (the instance never learns that it did). A failure
 * after the commit of a give-back is the dangerous one: the row has the values back, so keeping them as well would
 * hand them out twice.
 */
final class FaultInjectingStore extends ForwardingSequenceStore {

    private final AtomicInteger giveBacks = new AtomicInteger();
    private final AtomicInteger keeps = new AtomicInteger();
    private final AtomicInteger takes = new AtomicInteger();

    FaultInjectingStore(SequenceStore store) {
        super(store);
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        if (giveBacks.incrementAndGet() % 2 == 0) {
            throw crash("before giving back [" + restoredNextValue + ", " + expectedNextValue + ")");
        }
        if (delegate.giveBack(sequence, expectedNextValue, restoredNextValue)) {
            throw crash("after giving back [" + restoredNextValue + ", " + expectedNextValue + ")");
        }
        return false;
    }

    @Override
    public boolean keep(String sequence, long first, long end) {
        int call = keeps.incrementAndGet();
        if (call % 3 == 1) {
            throw crash("before keeping [" + first + ", " + end + ")");
        }
        boolean kept = delegate.keep(sequence, first, end);
        if (call % 3 == 2) {
            throw crash("after keeping [" + first + ", " + end + ")");
        }
        return kept;
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return takeKept(sequence, Long.MAX_VALUE, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return takeKept(sequence, Long.MIN_VALUE, count, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
        int call = takes.incrementAndGet();
        if (call % 3 == 1) {
            throw crash("before taking a kept range");
        }
        Optional<ReservedRange> taken = delegate.takeKept(sequence, from, count, maxValue);
        if (call % 3 == 2 && taken.isPresent()) {
            throw crash("after taking " + taken.get());
        }
        return taken;
    }

    private static SequenceStoreException crash(String where) {
        return new SequenceStoreException("injected crash " + where, null, false);
    }
}
