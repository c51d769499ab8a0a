package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;

/** What every strategy shares: the reservation with retry and backoff, the counters, the give-back at close. */
abstract class AbstractSequence extends NamedSequence {

    static final System.Logger LOG = System.getLogger(Sequence.class.getName());

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

    /** Blocks from the row after which a refill looks for kept ranges again, once one look found none. */
    private static final int KEPT_LOOK_BLOCKS = 16;
    /** ... and the nanoseconds that must have passed too: at most one such look per second. */
    private static final long KEPT_LOOK_PAUSE_NANOS = 1_000_000_000L;

    private final AtomicBoolean keptRangesChecked = new AtomicBoolean();
    private volatile boolean keptLookFound;
    private final AtomicInteger rowBlocksSinceKeptLook = new AtomicInteger();
    private volatile long keptLookAt;
    private final AtomicBoolean firstBlockLogged = new AtomicBoolean();

    AbstractSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        super(name, settings);
        this.store = store;
        this.ticker = ticker;
        this.timeoutNanos = settings.acquireTimeout().toNanos();
    }

    /** Installs the metrics tracker; called once by the registry before the sequence is published. */
    void tracker(SequenceMetricsTracker tracker) {
        this.tracker = GuardedMetricsTracker.guard(tracker);
    }

    @Override
    public long nextInTransaction(Object transaction) {
        return next();
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        return nextValues(count);
    }

    static long[] consecutive(long first, int count) {
        return LongStream.rangeClosed(first, first + count - 1).toArray();
    }

    static void requireCount(int count) {
        ReservedRange.requireCount(count);
    }

    final ReservedRange reserve(long count, long deadline) {
        return reserve(count, deadline, null);
    }

    /**
     * Reserves up to {@code count} values in the store's own transaction, retrying transient errors until
     * {@code deadline} (a gap, never a duplicate); fails on a range at or below what this instance reserved before
     * (the row was moved back). Observed as a child of {@code parentContext}, or of the current observation if null.
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
        checkOpen();
        long asked = ticker.read();
        ReservedRange kept = takeKept(count);
        if (kept != null) {
            logFirstBlock(kept, count, true, asked);
            return kept;
        }
        Backoff backoff = new Backoff();
        for (int attempt = 1; ; attempt++) {
            checkOpen();
            // Read before the statement: everything counted here has committed, so an untouched row is beyond it.
            long reservedBefore = highestReserved.get();
            long start = ticker.read();
            ReservedRange range;
            try {
                // Start-up blocks from the row are sized while the row is held, by the queue the store sees there.
                range = sizesByQueue()
                        ? store.reserveSized(name, (waited, ahead, behind) -> sizeForQueue(count, waited, ahead, behind),
                                settings.maxValue())
                        : store.reserve(name, count, settings.maxValue());
                tracker.recordReservation(ticker.read() - start, true);
                reservations.increment();
                highestReserved.accumulateAndGet(range.end() - 1, Math::max);
                rowBlocksSinceKeptLook.incrementAndGet();
            } catch (SequenceExhaustedException e) {
                failedAttempt(start);
                throw e;
            } catch (SequenceStoreException e) {
                failedAttempt(start);
                if (!e.isTransient()) {
                    throw new SequenceUnavailableException(name, "the " + store.name() + " store failed: "
                            + e.getMessage(), e);
                }
                if (!backoff.fits(ticker.read(), deadline)) {
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
            logFirstBlock(range, count, false, asked);
            return range;
        }
    }

    private void failedAttempt(long start) {
        reservationFailures.increment();
        tracker.recordReservation(ticker.read() - start, false);
    }

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

    /** Releases {@code [firstUnused, end)}: to the row, else kept, else lost (docs/design.md#release-at-close). */
    final void release(CloseReport.Collector report, long firstUnused, long end) {
        if (firstUnused >= end) {
            return;
        }
        ReservedRange range = new ReservedRange(firstUnused, end);
        try {
            if (store.giveBack(name, end, firstUnused)) {
                report.givenBack(range);
                return;
            }
        } catch (RuntimeException e) {
            discard(range.count());
            report.lost(range, "giving them back failed, so whether the row took them is unknown and they cannot be"
                    + " kept for the fleet either: " + e.getMessage(), e);
            return;
        }
        // Kept for the fleet, retrying transient errors within the acquire timeout.
        long deadline = ticker.read() + timeoutNanos;
        Backoff backoff = new Backoff();
        for (;;) {
            try {
                if (store.keep(name, range.first(), range.end())) {
                    report.kept(range);
                } else {
                    discard(range.count());
                    report.lost(range, "they could not go back to the row (the row has moved past them,"
                            + " or the store never moves back) and the " + store.name() + " store keeps no ranges"
                            + " for the fleet", null);
                }
                return;
            } catch (RuntimeException e) {
                if (e instanceof SequenceStoreException failure && failure.isTransient()
                        && backoff.fits(ticker.read(), deadline)) {
                    backoff.pause(name);
                    continue;
                }
                discard(range.count());
                report.lost(range, "the row has moved past them, and keeping them for the fleet failed: "
                        + (e instanceof SequenceStoreException ? e.getMessage() : e.toString()), e);
                return;
            }
        }
    }

    /**
     * Takes a kept range as a block when a look is due (docs/design.md#release-at-close); a store failure sends the
     * reservation to the row. The look fields need no lock: a race only costs or saves one look.
     */
    private @Nullable ReservedRange takeKept(long count) {
        if (!takesKeptRanges()) {
            return null;
        }
        boolean first = keptRangesChecked.compareAndSet(false, true);
        long start = ticker.read();
        if (!first && !keptLookFound
                && (rowBlocksSinceKeptLook.get() < KEPT_LOOK_BLOCKS || start - keptLookAt < KEPT_LOOK_PAUSE_NANOS)) {
            return null;
        }
        keptLookAt = start;
        rowBlocksSinceKeptLook.set(0);
        keptLookFound = false;
        try {
            ReservedRange kept = (first ? store.takeKept(name, count, settings.maxValue())
                    : store.takeKept(name, highestReserved.get() + 1, count, settings.maxValue())).orElse(null);
            if (kept != null) {
                keptLookFound = true;
                tracker.recordReservation(ticker.read() - start, true);
                reservations.increment();
                highestReserved.accumulateAndGet(kept.end() - 1, Math::max);
                if (!first) {
                    LOG.log(Level.DEBUG, () -> "sequence '" + name + "': block [" + kept.first() + ", " + kept.end()
                            + ") from the lowest range kept for the fleet above the values this instance reserved");
                }
            }
            return kept;
        } catch (RuntimeException e) {
            // Once per start at WARNING (a missing table of kept ranges would otherwise warn every sixteen blocks).
            LOG.log(first ? Level.WARNING : Level.DEBUG, "sequence '" + name + "': could not take a range kept for"
                    + " the fleet; the " + (first ? "first " : "") + "block comes from the row: " + e.getMessage());
            return null;
        }
    }

    private void logFirstBlock(ReservedRange range, long asked, boolean kept, long since) {
        String reason = firstBlockReason();
        if (reason == null || !firstBlockLogged.compareAndSet(false, true)) {
            return;
        }
        long millis = Math.max(0, ticker.read() - since) / 1_000_000;
        boolean cut = range.count() < asked;
        String source = !kept ? (cut ? "the row, cut at max-value " + settings.maxValue() : "the row")
                : cut ? "a range kept for the fleet by an instance that stopped, taken whole (smaller than the block)"
                : "the lowest range kept for the fleet by an instance that stopped (a larger one is split; its rest"
                        + " stays kept)";
        LOG.log(Level.INFO, () -> "sequence '" + name + "' (" + settings.strategy().externalName() + ") first block: ["
                + range.first() + ", " + range.end() + "), " + range.count() + " value" + (range.count() == 1 ? "" : "s")
                + ", from " + source + " in " + millis + " ms; size: " + reason);
    }

    /** No start-up line: a series' first block comes at each tenant's or period's first use, no start-up event. */
    final void quietFirstBlock() {
        firstBlockLogged.set(true);
    }

    /** Why the first block has the size asked for, for the start-up line; null where no block is held (no line). */
    @Nullable String firstBlockReason() {
        return null;
    }

    final void releaseLate(Block arrived) {
        CloseReport.Collector report = new CloseReport.Collector(name, settings.strategy());
        report.note("a block reserved before close arrived after it");
        release(report, arrived.first, arrived.end);
        log(report.build(issued()));
    }

    /** Whether reservations take ranges kept for the fleet: BATCH and ASYNC_BATCH. */
    boolean takesKeptRanges() {
        return false;
    }

    /** Closes the sequence and releases what it held; what became of it, or null if closed already. */
    abstract @Nullable CloseReport closeAndReport();

    @Override
    public final void close() {
        log(closeAndReport());
    }

    /** Logs a close report (none for null): at INFO, or at WARNING with the failure. */
    static void log(@Nullable CloseReport report) {
        if (report != null) {
            LOG.log(report.failed() ? Level.WARNING : Level.INFO, report.message(), report.failure());
        }
    }

    final void discard(long count) {
        if (count > 0) {
            discarded.add(count);
            tracker.recordDiscarded(count);
        }
    }

    /** Waits until the first block is in hand by the ticker's {@code deadline} (else fails); no-op without blocks. */
    void awaitFirstBlock(long deadline) {
    }

    abstract long issued();

    @Nullable Block blockInHand() {
        return null;
    }

    /** Values in hand that are not in {@link #blockInHand()}, such as a prefetched block. */
    long extraRemaining() {
        return 0;
    }

    /** Whether the next reservation is sized while the row is held, by the queue there ({@link #sizeForQueue}). */
    boolean sizesByQueue() {
        return false;
    }

    long sizeForQueue(long count, long waitedNanos, int ahead, int behind) {
        return count;
    }

    long nextBlockSize() {
        return 1;
    }

    /** The values left in the block in hand when a background refill starts; 0 without background refills. */
    long refillPoint() {
        return 0;
    }

    long lateRefills() {
        return 0;
    }

    @Override
    public final SequenceStats stats() {
        Block block = blockInHand();
        boolean hasBlock = block != null && block != Block.EMPTY;
        long highest = highestReserved.get();
        return new SequenceStats(name, settings.strategy(), issued(), reservations.sum(), reservationFailures.sum(),
                retries.sum(), waits.sum(), discarded.sum(), hasBlock ? block.first : -1, hasBlock ? block.end : -1,
                (hasBlock ? block.remaining() : 0) + extraRemaining(), nextBlockSize(), refillPoint(), lateRefills(),
                highest, settings.capacityUsedBelow(highest + 1));
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + "]";
    }
}
