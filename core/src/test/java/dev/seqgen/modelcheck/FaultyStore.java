package dev.seqgen.modelcheck;

import dev.seqgen.testing.ForwardingSequenceStore;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store over another that fails on a fixed rhythm, so that a model-checked scenario meets every kind of
 * failure at some interleaving: the 3rd, 6th, ... reservation fails transiently before it takes anything,
 * the 4th, 8th, ... takes its range and then fails (the acknowledgement lost on the way back, so the range is
 * gone from the row but the generator never sees it), and every 2nd give-back, every 2nd range kept for the fleet
 * and every 2nd kept range taken is applied and then reported as failed.
 */
final class FaultyStore extends ForwardingSequenceStore {

    private final AtomicInteger reservations = new AtomicInteger();
    private final AtomicInteger giveBacks = new AtomicInteger();
    private final AtomicInteger keeps = new AtomicInteger();
    private final AtomicInteger takes = new AtomicInteger();

    FaultyStore(SequenceStore store) {
        super(store);
    }

    @Override
    public String name() {
        return "faulty " + delegate.name();
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        int call = reservations.incrementAndGet();
        if (call % 3 == 0) {
            throw new SequenceStoreException("injected transient failure before the reservation", null, true);
        }
        ReservedRange range = delegate.reserve(sequence, count, maxValue);
        if (call % 4 == 0) {
            throw new SequenceStoreException("injected lost acknowledgement of " + range, null, true);
        }
        return range;
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        boolean given = delegate.giveBack(sequence, expectedNextValue, restoredNextValue);
        if (given && giveBacks.incrementAndGet() % 2 == 0) {
            throw new SequenceStoreException("injected lost acknowledgement of a give-back", null, true);
        }
        return given;
    }

    @Override
    public boolean keep(String sequence, long first, long end) {
        boolean kept = delegate.keep(sequence, first, end);
        if (kept && keeps.incrementAndGet() % 2 == 0) {
            throw new SequenceStoreException("injected lost acknowledgement of keeping [" + first + ", " + end + ")",
                    null, true);
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
        Optional<ReservedRange> taken = delegate.takeKept(sequence, from, count, maxValue);
        if (taken.isPresent() && takes.incrementAndGet() % 2 == 0) {
            throw new SequenceStoreException("injected lost acknowledgement of taking " + taken.get(), null, true);
        }
        return taken;
    }
}
