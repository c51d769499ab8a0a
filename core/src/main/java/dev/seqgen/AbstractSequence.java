package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * What every strategy shares: the reservation with retry and backoff, the counters, the give-back at close.
 */
abstract class AbstractSequence implements Sequence {

    static final System.Logger LOG = System.getLogger(Sequence.class.getName());

    final String name;
    final SequenceSettings settings;
    final SequenceStore store;
    final Ticker ticker;
    final long timeoutNanos;
    SequenceMetricsTracker tracker = SequenceMetricsTracker.noop();

    final LongAdder reservations = new LongAdder();
    final LongAdder reservationFailures = new LongAdder();
    final LongAdder retries = new LongAdder();
    final LongAdder waits = new LongAdder();
    final LongAdder discarded = new LongAdder();
    final AtomicLong highestReserved = new AtomicLong(-1);

    volatile boolean closed;

    AbstractSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        this.name = name;
        this.settings = settings;
        this.store = store;
        this.ticker = ticker;
        this.timeoutNanos = settings.acquireTimeout().toNanos();
    }

    /** Installs the metrics tracker; called once by the registry before the sequence is published. */
    void tracker(SequenceMetricsTracker tracker) {
        this.tracker = GuardedMetricsTracker.guard(tracker);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Strategy strategy() {
        return settings.strategy();
    }

    @Override
    public final SequenceSettings settings() {
        return settings;
    }

    @Override
    public long nextInTransaction(Object transaction) {
        return next();
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        return nextValues(count);
    }

    /** Returns {@code first, first + 1, ..., first + count - 1}. */
    static long[] consecutive(long first, int count) {
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = first + i;
        }
        return values;
    }

    static void requireCount(int count) {
        ReservedRange.requireCount(count);
    }

    /**
     * Reserves up to {@code count} values in the store's own transaction. Transient errors are retried
     * with exponential backoff and jitter until {@code deadline}; each attempt is one atomic store
     * operation, so a retry after an error whose outcome is unknown can leave a gap but never hand out a
     * value twice.
     *
     * <p>A range that starts at or below a value this instance reserved before the attempt began means the
     * row's {@code next_value} was moved back (edited by hand, restored from a backup): no give-back can do
     * that, because a give-back succeeds only when nobody reserved after the giver. The range is discarded
     * and the call fails, rather than hand out values twice. Only this instance's own reservations are
     * checked; a row moved back below values that other JVMs took cannot be detected here.
     */
    final ReservedRange reserve(long count, long deadline) {
        return reserve(count, deadline, null);
    }

    /**
     * As {@link #reserve(long, long)}, observed as a child of {@code parentContext} (captured by
     * {@link SequenceMetricsTracker#captureContext()} on the caller's thread), or of the current thread's
     * observation when null.
     */
    final ReservedRange reserve(long count, long deadline, @Nullable Object parentContext) {
        SequenceMetricsTracker.Span span = tracker.start(SequenceMetricsTracker.Operation.RESERVATION, parentContext);
        try {
            ReservedRange range = reserveWithRetries(count, deadline);
            span.end(null);
            return range;
        } catch (RuntimeException | Error e) {
            span.end(e);
            throw e;
        }
    }

    private ReservedRange reserveWithRetries(long count, long deadline) {
        Backoff backoff = new Backoff();
        for (int attempt = 1; ; attempt++) {
            checkOpen();
            // Read before the statement: every reservation counted here has committed, so an untouched row
            // is beyond it, even while other threads' reservations (ASYNC) complete out of order.
            long reservedBefore = highestReserved.get();
            long start = ticker.read();
            ReservedRange range;
            try {
                range = store.reserve(name, count, settings.maxValue());
                tracker.recordReservation(ticker.read() - start, true);
                reservations.increment();
                highestReserved.accumulateAndGet(range.end() - 1, Math::max);
            } catch (SequenceExhaustedException e) {
                failedAttempt(start);
                throw e;
            } catch (SequenceStoreException e) {
                failedAttempt(start);
                long now = ticker.read();
                if (!e.isTransient()) {
                    throw new SequenceUnavailableException(name, "the " + store.name() + " store failed: "
                            + e.getMessage(), e);
                }
                if (!backoff.fits(now, deadline)) {
                    throw new SequenceUnavailableException(name, "the " + store.name() + " store kept failing for "
                            + attempt + " attempt(s) within the acquire timeout of " + settings.acquireTimeout()
                            + ": " + e.getMessage(), e);
                }
                retries.increment();
                tracker.recordRetry();
                int failedAttempt = attempt;
                LOG.log(Level.DEBUG, () -> "sequence '" + name + "': retrying a reservation after transient error "
                        + failedAttempt + " of the " + store.name() + " store: " + e.getMessage());
                backoff.pause(name);
                continue;
            } catch (RuntimeException e) {
                failedAttempt(start);
                throw new SequenceUnavailableException(name, "the " + store.name() + " store failed: " + e, e);
            }
            if (range.first() <= reservedBefore) {
                discard(range.count());
                LOG.log(Level.WARNING, "sequence '" + name + "': the " + store.name() + " store handed out ["
                        + range.first() + ", " + range.end() + ") at or below " + reservedBefore + ", which this"
                        + " generator reserved before: the row was moved back; refusing the values");
                throw new SequenceUnavailableException(name, "the " + store.name() + " store handed out ["
                        + range.first() + ", " + range.end() + ") but this generator had already reserved values up"
                        + " to " + reservedBefore + ": the row's next_value was moved back (edited by hand? restored"
                        + " from a backup?). Refusing to hand out values twice; set next_value to at least "
                        + (reservedBefore + 1) + ", above what every generator has taken", null);
            }
            return range;
        }
    }

    private void failedAttempt(long start) {
        reservationFailures.increment();
        tracker.recordReservation(ticker.read() - start, false);
    }

    /** Ends the tracker's life with the sequence's (see {@link SequenceMetricsTracker#close()}). */
    final void closeTracker() {
        tracker.close();
    }

    final void checkOpen() {
        if (closed) {
            throw new SequenceUnavailableException(name, "the sequence is closed", null);
        }
    }

    final SequenceUnavailableException timedOut(String what) {
        return new SequenceUnavailableException(name, "no value within the acquire timeout of "
                + settings.acquireTimeout() + " (" + what + ")", null);
    }

    final void recordWait(long start) {
        waits.increment();
        tracker.recordWait(ticker.read() - start);
    }

    /**
     * Gives back {@code [firstUnused, end)} if {@code end} is still the row's {@code next_value}; otherwise
     * (or if the store fails) counts the values as discarded.
     */
    final void giveBack(long firstUnused, long end) {
        if (firstUnused >= end) {
            return;
        }
        try {
            if (store.giveBack(name, end, firstUnused)) {
                LOG.log(Level.DEBUG, () -> "sequence '" + name + "' gave back [" + firstUnused + ", " + end + ")");
                return;
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "sequence '" + name + "' could not give back its unused values", e);
        }
        discard(end - firstUnused);
    }

    final void discard(long count) {
        if (count > 0) {
            discarded.add(count);
            tracker.recordDiscarded(count);
        }
    }

    /**
     * Waits until the sequence holds its first block, for {@link SequenceRegistry#warmUp}; strategies that hold
     * no block have nothing to wait for.
     *
     * @param deadline the ticker reading by which the block must be in hand
     * @throws SequenceUnavailableException if it is not in hand by then
     */
    void awaitFirstBlock(long deadline) {
    }

    /** Values issued by this instance so far. */
    abstract long issued();

    /** The block in hand as {first, end, remaining}, or null for strategies that hold none. */
    @Nullable Block blockInHand() {
        return null;
    }

    /** Values in hand that are not in {@link #blockInHand()}, such as a prefetched block. */
    long extraRemaining() {
        return 0;
    }

    /** The size of the next reservation. */
    long nextBlockSize() {
        return 1;
    }

    /** The values left in the block in hand when a background refill starts; 0 without background refills. */
    long refillPoint() {
        return 0;
    }

    /** Background refills a caller had to wait for. */
    long lateRefills() {
        return 0;
    }

    @Override
    public final SequenceStats stats() {
        Block block = blockInHand();
        boolean hasBlock = block != null && block != Block.EMPTY;
        long highest = highestReserved.get();
        double used = settings.capacityUsedBelow(highest + 1);
        return new SequenceStats(name, settings.strategy(), issued(), reservations.sum(), reservationFailures.sum(),
                retries.sum(), waits.sum(), discarded.sum(), hasBlock ? block.first : -1, hasBlock ? block.end : -1,
                (hasBlock ? block.remaining() : 0) + extraRemaining(), nextBlockSize(), refillPoint(), lateRefills(),
                highest, used);
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}
