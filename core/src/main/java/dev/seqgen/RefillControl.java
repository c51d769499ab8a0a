package dev.seqgen;

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

    private final int baseBlockSize;
    private final int maxBlockSize;
    private final int lowWatermark;
    private final long targetIntervalNanos;
    private final long latencyCapNanos;
    /** Whether blocks grow and shrink with the refill interval. */
    private final boolean sizing;
    /** Whether the refill point follows the measurements (ASYNC_BATCH, adaptive, no low watermark set). */
    private final boolean placing;

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
        this.lowWatermark = settings.lowWatermark();
        this.placing = settings.strategy() == Strategy.ASYNC_BATCH && settings.adaptive() && !settings.lowWatermarkSet();
        this.targetIntervalNanos = settings.adaptiveTargetRefillInterval().toNanos();
        this.latencyCapNanos = settings.acquireTimeout().toNanos();
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
        if (started) {
            long interval = Math.max(1, now - lastStartAt);
            double sample = Math.max(0, issued - issuedAtLastStart) / (double) interval;
            rate = sample >= rate ? sample : rate + (sample - rate) * RATE_FALL;
            if (sizing) {
                long size = blockSize;
                if (interval < targetIntervalNanos) {
                    size = size * 2;
                } else if (interval > 2 * targetIntervalNanos) {
                    size = size / 2;
                }
                if (placing) {
                    size = Math.max(size, 2 * lead());
                }
                blockSize = (int) clamp(size, baseBlockSize, maxBlockSize);
            }
        }
        started = true;
        lastStartAt = now;
        issuedAtLastStart = issued;
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
        boolean late = lateSinceLastBlock;
        lateSinceLastBlock = false;
        if (late) {
            margin = Math.min(MAX_MARGIN, margin * 2);
        } else if (margin > MIN_MARGIN) {
            margin--;
        }
        double sample = clamp(refillNanos, 0, latencyCapNanos);
        latencyAverage = latencyAverage == 0 ? sample : latencyAverage + (sample - latencyAverage) * LATENCY_WEIGHT;
        latencyPeak = Math.max(sample, latencyPeak / 2);
        long scaled = size * lowWatermark / baseBlockSize;
        long point = placing ? clamp(lead(), scaled, size - 1) : scaled;
        refillPoint = Math.max(0, Math.min(point, size - 1));
        return refillPoint;
    }

    /** Values taken, at the estimated rate, while a refill that takes the estimated time is under way, with the margin. */
    @GuardedBy("this")
    private long lead() {
        double values = rate * Math.max(latencyAverage, latencyPeak) * margin;
        return (long) Math.min(Math.ceil(values), maxBlockSize);
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

    private static long clamp(long value, long min, long max) {
        return Math.max(min, Math.min(value, max));
    }

    private static double clamp(double value, double min, double max) {
        return Math.max(min, Math.min(value, max));
    }
}
