package dev.seqgen;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

/**
 * {@link Strategy#SYNC}: the increment runs inside the caller's transaction. Unique, ordered among commits, gapless; a
 * crash costs nothing. Throughput is bounded by one over the caller's transaction time. Errors are not retried here:
 * the caller retries its transaction as a whole.
 */
final class SyncSequence extends UnbufferedSequence {

    SyncSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        super(name, settings, store, ticker);
    }

    @Override
    public long next() {
        throw new IllegalStateException("sequence '" + name + "' uses the SYNC strategy, which takes values inside"
                + " the caller's transaction: call nextInTransaction(transaction)");
    }

    @Override
    public long[] nextValues(int count) {
        throw new IllegalStateException("sequence '" + name + "' uses the SYNC strategy, which takes values inside"
                + " the caller's transaction: call nextValuesInTransaction(transaction, count)");
    }

    @Override
    public long nextInTransaction(Object transaction) {
        return increment(transaction, 1).first();
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        requireCount(count);
        return consecutive(increment(transaction, count).first(), count);
    }

    @Override
    public boolean giveBackInTransaction(Object transaction, long firstUnused, long end) {
        checkOpen();
        if (firstUnused >= end) {
            return true;
        }
        try {
            boolean given = store.giveBackInTransaction(transaction, name, end, firstUnused);
            if (given) {
                issued.add(firstUnused - end);
            }
            return given;
        } catch (SequenceStoreException e) {
            throw new SequenceUnavailableException(name, "the " + store.name() + " store failed inside the caller's"
                    + " transaction while giving back [" + firstUnused + ", " + end + ") (roll it back and retry): "
                    + e.getMessage(), e);
        }
    }

    private ReservedRange increment(Object transaction, int count) {
        checkOpen();
        if (transaction == null) {
            throw new IllegalArgumentException("sequence '" + name + "' uses the SYNC strategy and needs the"
                    + " caller's transaction, got null");
        }
        long start = ticker.read();
        ReservedRange range;
        try {
            range = store.reserveInTransaction(transaction, name, count, settings.maxValue());
        } catch (SequenceExhaustedException | IllegalArgumentException e) {
            reservationFailures.increment();
            throw e;
        } catch (SequenceStoreException e) {
            reservationFailures.increment();
            tracker.recordReservation(ticker.read() - start, false);
            throw new SequenceUnavailableException(name, "the " + store.name() + " store failed inside the caller's"
                    + " transaction (roll it back and retry)" + (e.isTransient() ? ", a transient error" : "") + ": "
                    + e.getMessage(), e);
        }
        tracker.recordReservation(ticker.read() - start, true);
        reservations.increment();
        if (range.count() < count) {
            // Only part of the request fits below the maximum; the caller's transaction must roll back.
            throw new SequenceExhaustedException(name, settings.maxValue());
        }
        highestReserved.accumulateAndGet(range.end() - 1, Math::max);
        issued.add(count);
        return range;
    }
}
