package dev.seqgen;

import org.jspecify.annotations.Nullable;

/**
 * How big the next block is and, for ASYNC_BATCH, how many values are left when its refill starts: the control
 * loop of an adaptive block sequence.
 *
 * <pre>
 * The control loop
 *
 * ASYNC_BATCH keeps callers off the store only if a refill lands before the block in hand runs out, so the
 * refill must start while what is left lasts longer than the refill takes:
 *
 *     refill point (values left at the start) >= rate (values per ns) x refill time (ns)
 *
 * Both are measured, once per block, where nothing is on the callers' path:
 *   - the refill time, from the moment a caller claimed the trigger (so the executor's queueing delay is in it)
 *     to the moment the block is ready; each sample is capped at the acquire timeout (a caller never waits
 *     longer than that anyway, and a store that suddenly takes 5 s must not be believed beyond it). Two
 *     estimates: an average (EWMA, weight 1/4) and a peak that takes any higher sample at once and halves at
 *     every lower one, so a spike is answered by the next block and forgotten within a few blocks;
 *   - the rate, from the values handed out between two refill starts over the time between them: an estimate
 *     that rises to a higher sample at once and falls by a quarter of the difference per block, so a burst is
 *     answered by the next block and a lull does not shrink the lead before it is certain.
 *
 *     refill point = clamp(rate x max(average, peak) x margin, low watermark, size - 1)
 *
 * The margin starts at 2, doubles (up to 16) when a refill was late (a caller found the block empty and had
 * to wait: the estimates were wrong, whatever the reason) and comes back down by one per refill in time. The
 * configured low watermark (a quarter of the block by default) is the floor, so the adaptive point only ever
 * starts a refill earlier than a fixed one would.
 *
 * The block size follows the refill interval, as for BATCH: doubled when refills come more often than the
 * target interval, halved when they come less often than twice the target (an octave: a block doubled just
 * below the target lands below twice it, a block halved just above twice the target lands above it, so the
 * size settles instead of swinging). For ASYNC_BATCH it is also at least twice the lead (rate x refill time x
 * margin), so that the lead fits in a block with half the block to spare. Every size is clamped to [block-size, max(block-size, adaptive.max-block-size)]: the configured block
 * is the floor, the configured maximum (the largest gap a stopped JVM may leave) the ceiling, whatever the
 * measurements say. All arithmetic saturates (doubles, then clamps), so no estimate can overflow.
 *
 * Fleet spacing (ASYNC_BATCH, adaptive): many instances share one row, and a row serves one reservation at a
 * time (its lock and commit; about 100 a second for a Spanner row). An instance that aims at one refill per
 * target interval puts that load on the row whatever the others do, so N instances ask for N refills per
 * interval; past what the row serves, reservations queue and callers run dry. No instance knows N, and
 * instances do not talk to each other; what each one sees is how long its own reservations take. The least it
 * has seen is the row's service time as seen from here (no queue in it); a reservation that took at least half
 * that much longer again, and at least 1 ms longer, waited behind other reservations: the row is queueing. So
 * the loop steers to a refill interval of its own, the spaced interval, that the octave rule above uses in
 * place of the target interval:
 *
 *     a queued reservation:  spaced interval = min(target x 1024, max(spaced interval, last refill interval) x 2)
 *     any other one:         spaced interval = max(target, spaced interval x (1 - 1/128))
 *
 * which has the shape of TCP's congestion control on the transactions this instance puts on the row: halved at
 * once when the row queues, given back a little at a time while it does not (a share of 1/128 per refill, so half
 * the spacing is given back after about 90 refills: minutes for an instance that refills every second, hours for
 * one that refills every 100 s).
 * While the spaced interval is above the target, a block asked for sooner than it is sized at once to last
 * it (rate x spaced interval) rather than doubled, so a fleet that meets a queue answers with its next
 * refills, not seven doublings later. The spacing is multiplicative, so it neither needs nor learns N: each
 * instance that sees the queue halves its own load, and the fleet's load on the row halves with the share of
 * instances that saw it. What it trades: the blocks of a fleet are larger (up to adaptive.max-block-size, the
 * gap a stop may leave, which stays the ceiling), and a row that becomes slower for good (moved further away)
 * reads as a queue until the spacing has doubled enough times to reach the maximum block. One instance alone
 * never queues behind another, so its spaced interval stays the target and the loop is the one above, to the
 * value; a latency spike doubles its spacing once and is given back over the next refills.
 *
 * The first block and the start-up queue: nothing is measured before the first block, so it is the configured
 * block-size, at start-up as at any first use, warmed up or not. What an instance can read without talking to the
 * others is how long its own reservations took, and at start-up that is the fleet's queue: instances that start at
 * once are served one first reservation at a time, so the one served k-th waited k reservations, and every instance
 * of that fleet comes back to the row at about the same moment and meets a queue as long again. So the latencies of
 * an instance's first two reservations (the first block's, and the next one's, which waits for the first
 * reservations still queued behind it) are its start-up queue, not capped at the acquire timeout:
 *
 *     start-up queue  = max(latency of reservation 1, latency of reservation 2), then given back 1/128 per later
 *                       reservation (as the spacing below)
 *     block          >= rate x start-up queue x 8        (bounded by adaptive.max-block-size)
 *     lead           >= rate x start-up queue x margin   (the refill starts while that much is left)
 *
 * A block that lasts eight queues brings an instance back at most once per eight times what the fleet's round of
 * reservations took, so a fleet that started at once keeps the row at most about an eighth busy; an instance alone,
 * or a few replicas, wait one reservation (10 ms on a 10 ms row: 80 values at 1,000 a second), which asks for nothing
 * beyond the configured block, so their numbers stay compact. Before values flow (the warm-up, or a first block
 * whose values have not started to go), the rate is the prior one the loop leaves the configured block alone at
 * (block-size per target interval); a rate sample is taken only once a value has been handed out, over a window of
 * at least 1 ms that starts no earlier than the last block that arrived before the first value, so that waiting for
 * the row is not read as a slow consumer.
 *
 * The warm-up (SequenceRegistry.warmUp, the starter's readiness) takes the second block before it returns
 * (AsyncBatchSequence.awaitSecondBlock): its latency is what tells an instance the row served early that a queue is
 * behind it, and sized by the first block's wait it carries an instance served late past the queue of second
 * reservations. When the two blocks in hand do not last the start-up queue with the margin (the instances served
 * early, whose second block was sized by a short first wait), the warm-up reserves a third block, sized by the queue,
 * before it returns too. What it trades: an application that starts with a fleet becomes ready after two or three
 * reservations instead of one (for N instances starting at once on a row of transaction time s, about 2 x N x s plus
 * the third reservations of the instances served first, instead of N x s): no instance can learn of the queue behind
 * it sooner, since its next reservation waits behind that queue. An instance alone, or among a few replicas, becomes
 * ready after two reservations, holding two blocks of the configured size (what an async-batch sequence holds after
 * its first refill anyway). Without a warm-up the same rule sizes the blocks, but an instance takes traffic with its
 * first block and the ones served first run dry while their second reservation waits (callers wait, and fail at the
 * acquire timeout) until the start-up queue has cleared. The alternative, the largest block first for every
 * warmed-up instance, put adaptive.max-block-size values (100,000 by default) into every instance's hands before it
 * had taken a value: numbers from regions a block apart, and the largest block lost at every crash, for three
 * replicas as for thousands.
 *
 * Thread safety: every method is synchronized. They run once per block (at a refill's start and end, and when
 * a caller finds a refill late), never per value, so the monitor costs nothing on the hot path; the two values
 * the hot path and the metrics read, the current size and refill point, are volatile.
 * </pre>
 */
final class RefillControl {

    private static final double RATE_FALL = 0.25;
    private static final double LATENCY_WEIGHT = 0.25;
    private static final int MIN_MARGIN = 2;
    private static final int MAX_MARGIN = 16;
    /** A reservation queued if it took this share of the least latency seen longer than that least latency. */
    private static final double QUEUED_SHARE = 0.5;
    /** ... and at least this much longer, so that a fast store's jitter is not read as a queue. */
    private static final long QUEUED_FLOOR_NANOS = 1_000_000;
    /** The share of the spacing given back by a reservation that did not queue. */
    private static final double SPACING_RELEASE = 1.0 / 128;
    /** The largest spaced interval, in target intervals. */
    private static final int MAX_SPACING = 1024;
    /** The reservations whose latencies are the start-up queue (see "The first block and the start-up queue"). */
    private static final int START_UP_RESERVATIONS = 2;
    /** How many start-up queues a block lasts at least. */
    private static final int QUEUES_PER_BLOCK = 8;
    /** The shortest window a rate sample is taken over: a refill asked for right after a block arrived measures none. */
    private static final long RATE_WINDOW_FLOOR_NANOS = 1_000_000;

    private final int baseBlockSize;
    private final int maxBlockSize;
    private final int lowWatermark;
    private final long targetIntervalNanos;
    private final long latencyCapNanos;
    /** Whether blocks grow and shrink with the refill interval. */
    private final boolean sizing;
    /** Why blocks keep the configured size when they do not adapt; null when they do (for the start-up line). */
    private final @Nullable String fixedBecause;
    /** Whether the refill point follows the measurements (ASYNC_BATCH, adaptive, no low watermark set). */
    private final boolean placing;
    /** Whether the refill interval is spaced out when reservations queue (ASYNC_BATCH, adaptive). */
    private final boolean spacing;

    @GuardedBy("this")
    private boolean started;
    @GuardedBy("this")
    private long lastStartAt;
    @GuardedBy("this")
    private long issuedAtLastStart;
    /** Values per nanosecond. */
    @GuardedBy("this")
    private double rate;
    @GuardedBy("this")
    private double latencyAverage;
    @GuardedBy("this")
    private double latencyPeak;
    @GuardedBy("this")
    private int margin = MIN_MARGIN;
    /** Whether a caller found the block empty since the last block arrived. */
    @GuardedBy("this")
    private boolean lateSinceLastBlock;
    /** The least latency sample so far; 0 before the first. */
    @GuardedBy("this")
    private double leastLatency;
    /** The refill interval the octave rule steers to: the target, or more while the row queues. */
    @GuardedBy("this")
    private double spacedInterval;
    /** The time between the last two refill starts. */
    @GuardedBy("this")
    private long lastInterval;
    /** Whether a rate sample was taken; before it, {@link #rateOrPrior()} is the prior rate. */
    @GuardedBy("this")
    private boolean rateMeasured;
    /** Values per nanosecond at which the configured block lasts the target interval: the rate before any sample. */
    private final double priorRate;
    /** Latency samples taken so far. */
    @GuardedBy("this")
    private long samples;
    /** The start-up queue, in nanoseconds (see the design comment); 0 before the first sample. */
    @GuardedBy("this")
    private double startUpQueue;

    /** Reservations that queued at the row; written only under the monitor. */
    private volatile long queuedReservations;

    /** Refills a caller had to wait for; written only under the monitor. */
    private volatile long lateRefills;

    private volatile int blockSize;
    private volatile long refillPoint;

    /**
     * @param canResize whether the store serves reservations of any size (false: blocks stay at block-size)
     */
    RefillControl(SequenceSettings settings, boolean canResize) {
        this.baseBlockSize = settings.blockSize();
        this.sizing = settings.adaptive() && canResize && settings.adaptiveMaxBlockSize() > baseBlockSize;
        this.maxBlockSize = sizing ? settings.adaptiveMaxBlockSize() : baseBlockSize;
        this.fixedBecause = sizing ? null
                : !settings.adaptive() ? "adaptive sizing is off"
                : !canResize ? "the store serves blocks of its own size only"
                : "adaptive.max-block-size is not above it";
        this.lowWatermark = settings.lowWatermark();
        this.placing = settings.strategy() == Strategy.ASYNC_BATCH && settings.adaptive() && !settings.lowWatermarkSet();
        this.targetIntervalNanos = settings.adaptiveTargetRefillInterval().toNanos();
        this.latencyCapNanos = settings.acquireTimeout().toNanos();
        this.spacing = sizing && settings.strategy() == Strategy.ASYNC_BATCH;
        this.spacedInterval = targetIntervalNanos;
        this.priorRate = (double) baseBlockSize / targetIntervalNanos;
        this.blockSize = baseBlockSize;
        this.refillPoint = lowWatermark;
    }

    /**
     * Called when a reservation starts: takes a rate sample and returns the size to reserve.
     *
     * @param now the ticker's reading
     * @param issued the values handed out by the sequence so far
     */
    synchronized long beforeReservation(long now, long issued) {
        boolean measured = false;
        if (started) {
            long interval = Math.max(1, now - lastStartAt);
            measured = issued > 0 && interval >= RATE_WINDOW_FLOOR_NANOS;
            if (measured) {
                double sample = Math.max(0, issued - issuedAtLastStart) / (double) interval;
                rate = sample >= rate ? sample : rate + (sample - rate) * RATE_FALL;
                rateMeasured = true;
                lastInterval = interval;
            }
            if (sizing) {
                long size = blockSize;
                if (measured && interval < spacedInterval) {
                    size = spacedInterval > targetIntervalNanos
                            ? Math.max(size * 2, (long) Math.min(Math.ceil(rate * spacedInterval), maxBlockSize))
                            : size * 2;
                } else if (measured && interval > 2 * spacedInterval) {
                    size = size / 2;
                }
                size = Math.max(size, saturated(rateOrPrior() * startUpQueue * QUEUES_PER_BLOCK));
                if (placing) {
                    size = Math.max(size, 2 * lead());
                }
                blockSize = (int) clamp(size, baseBlockSize, maxBlockSize);
            }
        }
        if (!started || measured) {
            lastStartAt = now;
            issuedAtLastStart = issued;
        }
        started = true;
        return blockSize;
    }

    /** Called once per block by the caller that finds the block empty and the refill not there yet. */
    synchronized void refillLate() {
        lateRefills++;
        lateSinceLastBlock = true;
    }

    /**
     * Called when a block of {@code size} values has arrived, {@code refillNanos} after it was asked for:
     * takes a latency sample and returns the number of values to leave in the block when its refill starts.
     */
    synchronized long afterReservation(long size, long refillNanos) {
        samples++;
        if (samples <= START_UP_RESERVATIONS) {
            startUpQueue = Math.max(startUpQueue, Math.min(refillNanos, (double) targetIntervalNanos * MAX_SPACING));
        } else {
            startUpQueue *= 1 - SPACING_RELEASE;
        }
        boolean late = lateSinceLastBlock;
        lateSinceLastBlock = false;
        if (late) {
            margin = Math.min(MAX_MARGIN, margin * 2);
        } else if (margin > MIN_MARGIN) {
            margin--;
        }
        double sample = clamp(refillNanos, 0, latencyCapNanos);
        if (spacing) {
            space(sample);
        }
        latencyAverage = latencyAverage == 0 ? sample : latencyAverage + (sample - latencyAverage) * LATENCY_WEIGHT;
        latencyPeak = Math.max(sample, latencyPeak / 2);
        long scaled = size * lowWatermark / baseBlockSize;
        long point = placing ? clamp(lead(), scaled, size - 1) : scaled;
        refillPoint = Math.max(0, Math.min(point, size - 1));
        return refillPoint;
    }

    /**
     * {@link #afterReservation(long, long)} for a block that arrived at {@code now}, when the sequence had handed out
     * {@code issued} values: while none has been handed out, the rate window restarts at each block's arrival, so
     * that the wait for the row is not read as a slow consumer (see the design comment).
     */
    synchronized long afterReservation(long size, long refillNanos, long now, long issued) {
        if (started && issued == 0) {
            lastStartAt = now;
        }
        return afterReservation(size, refillNanos);
    }

    /**
     * Why the first block has the size {@link #blockSize()} gives before any reservation (see "The first block" in
     * the design comment): for the start-up line.
     */
    String firstBlockReason() {
        return fixedBecause == null
                ? "block-size " + baseBlockSize + ", as nothing is measured before the first block; later blocks"
                        + " follow the rate and the row's queue, up to adaptive.max-block-size " + maxBlockSize
                : "block-size " + baseBlockSize + " (" + fixedBecause + ")";
    }

    /** Moves the spaced interval on one latency sample (see "Fleet spacing" in the design comment). */
    @GuardedBy("this")
    private void space(double sample) {
        boolean queued = leastLatency > 0
                && sample - leastLatency >= Math.max(leastLatency * QUEUED_SHARE, QUEUED_FLOOR_NANOS);
        if (queued) {
            queuedReservations++;
            spacedInterval = Math.min((double) targetIntervalNanos * MAX_SPACING,
                    Math.max(spacedInterval, lastInterval) * 2);
        } else {
            spacedInterval = Math.max(targetIntervalNanos, spacedInterval * (1 - SPACING_RELEASE));
        }
        if (leastLatency == 0 || sample < leastLatency) {
            leastLatency = Math.max(sample, 1);
        }
    }

    /** Values taken, at the estimated rate, while a refill that takes the estimated time is under way, with the margin. */
    @GuardedBy("this")
    private long lead() {
        return saturated(rateOrPrior() * Math.max(Math.max(latencyAverage, latencyPeak), startUpQueue) * margin);
    }

    /**
     * Whether {@code valuesInHand} last the start-up queue, with the margin, at the rate (see the design comment):
     * if not, the warm-up reserves one more block before it returns. Always true for blocks that do not adapt.
     */
    synchronized boolean lastsTheStartUpQueue(long valuesInHand) {
        return !sizing || valuesInHand >= saturated(rateOrPrior() * startUpQueue * margin);
    }

    /** The measured rate, or the prior one before any sample (see the design comment). */
    @GuardedBy("this")
    private double rateOrPrior() {
        return rateMeasured ? rate : priorRate;
    }

    /** {@code values} rounded up, at most the largest block. */
    private long saturated(double values) {
        return (long) Math.min(Math.ceil(values), maxBlockSize);
    }

    /** The start-up queue in nanoseconds (see the design comment). */
    synchronized long startUpQueue() {
        return (long) startUpQueue;
    }

    /** The size of the next block. */
    int blockSize() {
        return blockSize;
    }

    /** The values left in the block in hand when its refill starts. */
    long refillPoint() {
        return refillPoint;
    }

    /** Refills that callers had to wait for. */
    long lateRefills() {
        return lateRefills;
    }

    /** Reservations that queued at the row behind others (see "Fleet spacing"). */
    long queuedReservations() {
        return queuedReservations;
    }

    /** The refill interval the block size steers to now, in nanoseconds: the target, or more while the row queues. */
    synchronized long spacedInterval() {
        return (long) spacedInterval;
    }

    private static long clamp(long value, long min, long max) {
        return Math.max(min, Math.min(value, max));
    }

    private static double clamp(double value, double min, double max) {
        return Math.max(min, Math.min(value, max));
    }
}
