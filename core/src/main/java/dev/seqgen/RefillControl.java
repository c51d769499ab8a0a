package dev.seqgen;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The control loop of an adaptive block sequence: the next block's size and, for ASYNC_BATCH, the values left when
 * its refill starts (docs/design.md#refill-control). The synchronized methods hold the estimates and run once per
 * block, never per value; the block size and refill point, read on the hot path, are volatile.
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
    /** The reservations whose latencies are the start-up queue. */
    private static final int START_UP_RESERVATIONS = 2;
    /** How many start-up queues a block lasts at least. */
    private static final int QUEUES_PER_BLOCK = 8;
    /** The transactions ahead of a first reservation that time the row well enough to size it by the queue behind. */
    private static final int TIMED_AHEAD = 8;
    /** The shortest window of a rate sample: a refill asked for right after a block arrived measures none. */
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

    @GuardedBy("this") private boolean started;
    @GuardedBy("this") private long lastStartAt;
    @GuardedBy("this") private long issuedAtLastStart;
    /** Values per nanosecond. */
    @GuardedBy("this") private double rate;
    @GuardedBy("this") private double latencyAverage;
    @GuardedBy("this") private double latencyPeak;
    @GuardedBy("this") private int margin = MIN_MARGIN;
    /** Whether a caller found the block empty since the last block arrived. */
    @GuardedBy("this") private boolean lateSinceLastBlock;
    /** The least latency sample so far; 0 before the first. */
    @GuardedBy("this") private double leastLatency;
    /** The refill interval the octave rule steers to: the target, or more while the row queues. */
    @GuardedBy("this") private double spacedInterval;
    /** The time between the last two refill starts. */
    @GuardedBy("this") private long lastInterval;
    /** Whether a rate sample was taken; before it, {@link #rateOrPrior()} is the prior rate. */
    @GuardedBy("this") private boolean rateMeasured;
    /** Values per nanosecond at which the configured block lasts the target interval: the rate before any sample. */
    private final double priorRate;
    /** Latency samples taken so far. */
    @GuardedBy("this") private long samples;
    /** The start-up queue, in nanoseconds; 0 before the first sample. */
    @GuardedBy("this") private double startUpQueue;

    /** The time until the queue behind a start-up reservation drains, as the store saw it; -1 if unknown or untimed. */
    @GuardedBy("this") private double queueBehind = -1;
    /** The row's time to serve the fleet queued at it, for the reservation in flight; 0 if not sized by the queue. */
    @GuardedBy("this") private double fleetQueue;
    /** The row's transaction time the reservation in flight measured: its latency sample, in place of its wait. */
    @GuardedBy("this") private double rowTransaction;
    /** What the store showed the first reservation of the queue at the row, for the start-up line; null if nothing. */
    @GuardedBy("this") private @Nullable String firstQueue;
    /** Whether the first reservation was sized by that queue. */
    @GuardedBy("this") private boolean firstSized;
    /** The share of each block handed out when its refill starts; -1 if not phased (docs/design.md#refill-phase). */
    @GuardedBy("this") private double phase = -1;
    /** The fleet the phase was set by; 0 before. */
    @GuardedBy("this") private int phaseFleet;
    /** The transactions behind the last reservation sized by the queue, or the most seen since; -1 before. */
    @GuardedBy("this") private int behindSeen = -1;

    /** Reservations that queued at the row; written only under the monitor. */
    private volatile long queuedReservations;
    /** Refills a caller had to wait for; written only under the monitor. */
    private volatile long lateRefills;

    private volatile int blockSize;
    private volatile long refillPoint;

    /** @param canResize whether the store serves reservations of any size (false: blocks stay at block-size) */
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

    /** Called when a reservation starts, at {@code now}, {@code issued} values handed out: a rate sample; the size. */
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

    /** Whether the next reservation is a start-up one, to be sized by the queue the store sees at the row. */
    synchronized boolean sizesByQueue() {
        return sizing && samples < START_UP_RESERVATIONS;
    }

    /**
     * Sizes a start-up reservation while the store holds the row, to last eight turns of the fleet queued there; an
     * untimed row or an unseen queue takes {@code count} (docs/design.md#the-first-block-and-the-start-up-queue).
     */
    synchronized long sizeForQueue(long count, long waitedNanos, int ahead, int behind) {
        fleetQueue = 0;
        double transaction = ahead >= TIMED_AHEAD ? (double) waitedNanos / (ahead + 1) : leastLatency;
        if (!sizing || ahead < 0 || behind < 0 || transaction <= 0) {
            if (samples == 0 && sizing && ahead >= 0 && behind >= 0) {
                firstQueue = ahead + " ahead and " + behind + " behind at the row, too few ahead to time it";
            }
            return count;
        }
        double cap = (double) targetIntervalNanos * MAX_SPACING;
        rowTransaction = transaction;
        fleetQueue = Math.min(transaction * (ahead + behind + 1), cap);
        queueBehind = Math.max(queueBehind, Math.min(transaction * behind, cap));
        blockSize = (int) clamp(Math.max(count, saturated(rateOrPrior() * fleetQueue * QUEUES_PER_BLOCK)),
                baseBlockSize, maxBlockSize);
        behindSeen = behind;
        int fleet = ahead + behind + 1;
        if (placing && fleet >= TIMED_AHEAD && fleet > phaseFleet) {
            phaseFleet = fleet;
            // The k-th of a fleet of F refills once the queue behind it has drained, plus k / F of a block's time: the
            // fleet's refills then follow each other evenly over a block's time instead of in one burst a block later.
            double blockNanos = blockSize / rateOrPrior();
            phase = Math.min(transaction * behind / blockNanos + (double) ahead / fleet, 1);
        }
        if (samples == 0) {
            firstSized = true;
            firstQueue = String.format(Locale.ROOT, "%d ahead and %d behind at the row, %.1f ms a transaction:"
                    + " eight turns of that fleet at the rate", ahead, behind, transaction / 1e6);
        }
        return blockSize;
    }

    /** Whether the first block was sized by the queue at the row and {@code valuesInHand} outlast the queue behind. */
    synchronized boolean firstBlockOutlastsQueue(long valuesInHand) {
        return queueBehind >= 0 && valuesInHand >= saturated(rateOrPrior() * queueBehind * margin);
    }

    /**
     * Whether {@code queued} at the row now (-1: unknown) are more than the most behind the last reservation sized by
     * the queue so far: then the fleet is still arriving, and the queue behind and the start-up queue grow with it.
     */
    synchronized boolean queueGrew(int queued) {
        if (behindSeen < 0 || queued <= behindSeen) {
            return false;
        }
        behindSeen = queued;
        double cap = (double) targetIntervalNanos * MAX_SPACING;
        queueBehind = Math.max(queueBehind, Math.min(rowTransaction * queued, cap));
        startUpQueue = Math.max(startUpQueue, queueBehind);
        return true;
    }

    /** The time between looks at a queue behind: four of the row's transactions, at most the queue's own; 0: none. */
    synchronized long lookInterval() {
        return behindSeen <= 0 ? 0 : (long) (rowTransaction * Math.min(4, behindSeen));
    }

    /** Called once per block by the caller that finds the block empty and the refill not there yet. */
    synchronized void refillLate() {
        lateRefills++;
        lateSinceLastBlock = true;
    }

    /** A block of {@code size} came {@code refillNanos} after it was asked for: a latency sample; the refill point. */
    synchronized long afterReservation(long size, long refillNanos) {
        samples++;
        if (samples <= START_UP_RESERVATIONS) {
            // A block sized by the fleet at the row: the fleet's turn, not the queue it waited in, is what comes next.
            double queue = fleetQueue > 0 ? fleetQueue : refillNanos;
            startUpQueue = Math.max(startUpQueue, Math.min(queue, (double) targetIntervalNanos * MAX_SPACING));
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
        // The queue ahead of a block sized by the fleet is gone once it is served: its latency sample is the row's own.
        double sample = clamp(fleetQueue > 0 ? rowTransaction : refillNanos, 0, latencyCapNanos);
        fleetQueue = 0;
        if (spacing) {
            space(sample);
        }
        latencyAverage = latencyAverage == 0 ? sample : latencyAverage + (sample - latencyAverage) * LATENCY_WEIGHT;
        latencyPeak = Math.max(sample, latencyPeak / 2);
        long scaled = size * lowWatermark / baseBlockSize;
        long point = !placing ? scaled
                : phase >= 0 ? Math.max(rowLead(), (long) Math.ceil((1 - phase) * size))
                : clamp(lead(), scaled, size - 1);
        refillPoint = Math.max(0, Math.min(point, size - 1));
        return refillPoint;
    }

    /**
     * As {@link #afterReservation(long, long)}; while no value was {@code issued}, the rate window restarts at
     * {@code now}, so waiting for the row is not read as a slow consumer.
     */
    synchronized long afterReservation(long size, long refillNanos, long now, long issued) {
        if (started && issued == 0) {
            lastStartAt = now;
        }
        return afterReservation(size, refillNanos);
    }

    /** Why the first block has the size it has, for the start-up line. */
    synchronized String firstBlockReason() {
        if (firstSized) {
            return firstQueue + ", at least block-size " + baseBlockSize + ", at most adaptive.max-block-size "
                    + maxBlockSize;
        }
        return fixedBecause == null
                ? "block-size " + baseBlockSize + ", as nothing is measured before the first block"
                        + (firstQueue == null ? "" : " (" + firstQueue + ")") + "; later blocks follow the rate and the"
                        + " row's queue, up to adaptive.max-block-size " + maxBlockSize
                : "block-size " + baseBlockSize + " (" + fixedBecause + ")";
    }

    /** Moves the spaced interval on one latency sample (docs/design.md#fleet-spacing). */
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

    /** Values taken at the estimated rate during a refill of the estimated time, with the margin. */
    @GuardedBy("this")
    private long lead() {
        return saturated(rateOrPrior() * Math.max(Math.max(latencyAverage, latencyPeak), startUpQueue) * margin);
    }

    /** {@link #lead()} without the start-up queue, which a phased instance's refills come after. */
    @GuardedBy("this")
    private long rowLead() {
        return saturated(rateOrPrior() * Math.max(latencyAverage, latencyPeak) * margin);
    }

    /** Whether {@code valuesInHand} last the start-up queue with the margin; else the warm-up takes a third block. */
    synchronized boolean lastsTheStartUpQueue(long valuesInHand) {
        return !sizing || valuesInHand >= saturated(rateOrPrior() * startUpQueue * margin);
    }

    /** The measured rate, or the prior one before any sample. */
    @GuardedBy("this")
    private double rateOrPrior() {
        return rateMeasured ? rate : priorRate;
    }

    /** {@code values} rounded up, at most the largest block. */
    private long saturated(double values) {
        return (long) Math.min(Math.ceil(values), maxBlockSize);
    }

    /** The start-up queue in nanoseconds. */
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

    /** Reservations that queued at the row behind others. */
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
