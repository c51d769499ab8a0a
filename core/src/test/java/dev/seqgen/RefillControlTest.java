package dev.seqgen;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The async-batch control loop on a simulated clock: what it does with a steady load, a latency spike, an outage,
 * a burst and late refills, and that every quantity stays within its bounds.
 */
class RefillControlTest {

    private static final long MS = 1_000_000L;

    /** Drives a {@link RefillControl} as an async-batch sequence would, at a steady rate and store latency. */
    private static final class Simulation {

        final RefillControl control;
        long now;
        long issued;
        long size;
        long point;

        Simulation(SequenceSettings settings) {
            control = new RefillControl(settings, true);
        }

        /** One block: values are taken for {@code intervalMs} at {@code valuesPerMs}, then the refill takes {@code latencyMs}. */
        void block(double valuesPerMs, long intervalMs, long latencyMs) {
            now += intervalMs * MS;
            issued += (long) (valuesPerMs * intervalMs);
            size = control.beforeReservation(now, issued);
            point = control.afterReservation(size, latencyMs * MS);
        }

        /** Blocks at a steady rate, each lasting until the refill point of the last one would be reached. */
        void steady(double valuesPerMs, long latencyMs, int blocks) {
            for (int i = 0; i < blocks; i++) {
                long interval = Math.max(1, (long) ((size == 0 ? 1000 : size - point) / valuesPerMs));
                block(valuesPerMs, interval, latencyMs);
            }
        }
    }

    private static SequenceSettings asyncBatch() {
        return SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).acquireTimeout(Duration.ofSeconds(1)).build();
    }

    @Test
    void placesTheRefillPointAtTheValuesTakenDuringARefillWithAMarginAndGrowsTheBlockToHoldIt() {
        Simulation sim = new Simulation(SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH)
                .adaptiveMaxBlockSize(10_000).build());
        // 100 values per ms (100k ids/s) against a store taking 20 ms: 2000 values go while a refill is under way.
        sim.steady(100, 20, 30);
        assertThat(sim.point).as("refill point: 2000 values during a refill, margin 2").isEqualTo(4000);
        assertThat(sim.size).as("block grown to at least twice the refill point, up to the maximum")
                .isEqualTo(10_000);
        assertThat(sim.control.lateRefills()).isZero();

        // The same with a fixed block of 1000 (a store that serves only its own block size): the refill starts at
        // once, and the block is too small for the rate whatever the loop does.
        Simulation fixed = new Simulation(asyncBatch().toBuilder().adaptiveMaxBlockSize(1000).build());
        fixed.steady(100, 20, 30);
        assertThat(fixed.size).isEqualTo(1000);
        assertThat(fixed.point).isEqualTo(999);
    }

    @Test
    void aSlowConsumerKeepsTheConfiguredBlockAndTheLowWatermarkAsTheFloor() {
        Simulation sim = new Simulation(asyncBatch());
        // 0.5 values per ms against 1 ms: a lead of 1 value; the default low watermark (250) stays the floor, and
        // 750 values last 1.5 s, more than the 1 s target, so the block does not grow.
        sim.steady(0.5, 1, 10);
        assertThat(sim.point).isEqualTo(250);
        assertThat(sim.size).isEqualTo(1000);
    }

    /** Async-batch with a small maximum block, so that the refill point is the lead, not a quarter of the block. */
    private static SequenceSettings smallMaximum() {
        return SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).adaptiveMaxBlockSize(3000)
                .acquireTimeout(Duration.ofSeconds(1)).build();
    }

    @Test
    void aLatencySpikeIsAnsweredAtOnceBoundedByTheAcquireTimeoutAndTheMaximumBlockThenForgotten() {
        Simulation sim = new Simulation(smallMaximum());
        sim.steady(100, 5, 20);
        assertThat(sim.size).isEqualTo(3000);
        assertThat(sim.point).as("100 values/ms x 5 ms x 2").isEqualTo(1000);

        // One reservation takes 5 s; the acquire timeout is 1 s, so the sample counts as 1 s: a lead of 200,000
        // values, clamped to the block.
        sim.block(100, 20, 5_000);
        assertThat(sim.point).isEqualTo(2999);
        sim.block(100, 1, 5);
        assertThat(sim.size).as("never past the maximum").isEqualTo(3000);

        sim.steady(100, 5, 40);
        assertThat(sim.point).as("the spike is forgotten (its trace in the average is under 1%)").isBetween(1000L, 1010L);
    }

    @Test
    void anOutageLeavesNoSampleAndTheLoopResumesAfterwards() {
        Simulation sim = new Simulation(smallMaximum());
        sim.steady(50, 20, 30);
        assertThat(sim.point).as("50 values/ms x 20 ms x 2").isEqualTo(2000);
        // Refills fail for 50 s: reservations start (rate samples of zero after the first) but no block arrives.
        for (int i = 0; i < 10; i++) {
            sim.now += 5_000 * MS;
            sim.control.beforeReservation(sim.now, sim.issued);
        }
        assertThat(sim.control.blockSize()).as("slow attempts shrink the block, never below the configured size")
                .isEqualTo(1000);
        sim.steady(50, 20, 40);
        assertThat(sim.point).as("back at the steady refill point").isEqualTo(2000);
        assertThat(sim.size).isEqualTo(3000);
    }

    @Test
    void aTenfoldBurstGrowsBlockAndRefillPointAtOnceAndTheBlockComesBackDownAfterwards() {
        Simulation sim = new Simulation(asyncBatch());
        sim.steady(10, 5, 30);
        long steadySize = sim.size;
        assertThat(steadySize).as("about a second of values").isEqualTo(16_000);

        sim.steady(100, 5, 30);
        long burstSize = sim.size;
        assertThat(burstSize).as("grown to the maximum").isEqualTo(100_000);

        sim.steady(10, 5, 60);
        assertThat(sim.size).as("the block comes back down").isLessThanOrEqualTo(2 * steadySize);
    }

    @Test
    void aLateRefillDoublesTheMarginWhichComesBackDownWithRefillsInTime() {
        Simulation sim = new Simulation(smallMaximum());
        sim.steady(100, 5, 30);
        assertThat(sim.point).isEqualTo(1000);
        sim.control.refillLate();
        sim.block(100, (sim.size - sim.point) / 100, 5);
        assertThat(sim.point).as("margin 4 instead of 2").isEqualTo(2000);
        assertThat(sim.control.lateRefills()).isEqualTo(1);
        sim.steady(100, 5, 10);
        assertThat(sim.point).isEqualTo(1000);
    }

    @Test
    void everyQuantityStaysWithinItsBoundsWhateverTheMeasurements() {
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(10)
                .adaptiveMaxBlockSize(500).acquireTimeout(Duration.ofMillis(100)).build();
        Simulation sim = new Simulation(settings);
        java.util.Random random = new java.util.Random(42);
        for (int i = 0; i < 10_000; i++) {
            if (random.nextInt(10) == 0) {
                sim.control.refillLate();
            }
            sim.block(random.nextDouble() * 100_000, random.nextInt(3), random.nextInt(10_000));
            assertThat(sim.size).isBetween(10L, 500L);
            assertThat(sim.point).isBetween(2L, sim.size - 1);
        }
    }

    @Test
    void aSetLowWatermarkFixesTheRefillPointAndAdaptiveOffFixesTheBlockToo() {
        Simulation setPoint = new Simulation(SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(1000)
                .lowWatermark(100).build());
        setPoint.steady(100, 5, 30);
        assertThat(setPoint.point).as("scaled with the block, never moved by the measurements")
                .isEqualTo(setPoint.size * 100 / 1000);
        assertThat(setPoint.size).isGreaterThan(1000);

        Simulation fixed = new Simulation(SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(1000)
                .adaptive(false).build());
        fixed.steady(100, 5, 30);
        assertThat(fixed.size).isEqualTo(1000);
        assertThat(fixed.point).isEqualTo(250);
    }

    @Test
    void aStoreThatServesOnlyItsOwnBlockSizeKeepsTheBlockFixed() {
        RefillControl control = new RefillControl(asyncBatch(), false);
        long now = 0;
        for (int i = 0; i < 20; i++) {
            now += MS;
            assertThat(control.beforeReservation(now, i * 1000L)).isEqualTo(1000);
            control.afterReservation(1000, 5 * MS);
        }
        assertThat(control.refillPoint()).as("the refill point still moves: 1000 values per ms x 5 ms x 2, clamped")
                .isEqualTo(999);
    }

    /** A row at 10 ms per reservation, 1000 values per second per instance: the fleet benchmark's setting. */
    private static SequenceSettings fleetMember() {
        return SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).acquireTimeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void oneInstanceAloneNeverSeesAQueueAndSteersToTheTargetIntervalAsBefore() {
        Simulation alone = new Simulation(fleetMember());
        alone.steady(1, 10, 50);
        assertThat(alone.control.queuedReservations()).isZero();
        assertThat(alone.control.spacedInterval()).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(alone.size).as("750 values last 0.75 s: doubled once, then 1.5 s is inside the octave")
                .isEqualTo(2000);

        // A fast store's jitter (0.2 ms to 0.9 ms) is more than half its least latency again, but under 1 ms.
        RefillControl jitter = new RefillControl(fleetMember(), true);
        long now = 0;
        for (int i = 1; i <= 50; i++) {
            now += 750 * MS;
            long size = jitter.beforeReservation(now, i * 750L);
            jitter.afterReservation(size, i % 2 == 0 ? 200_000 : 900_000);
        }
        assertThat(jitter.queuedReservations()).isZero();
        assertThat(jitter.spacedInterval()).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void aReservationThatQueuedBehindOthersHalvesTheRefillsAtOnceAndTheBlockIsSizedToLastTheSpacedInterval() {
        Simulation sim = new Simulation(fleetMember());
        sim.steady(1, 10, 30);
        long interval = (sim.size - sim.point) / 1;
        assertThat(sim.size).isEqualTo(2000);

        // One reservation took 40 ms, 30 ms of them behind other instances' reservations at the row.
        sim.steady(1, 40, 1);
        assertThat(sim.control.queuedReservations()).isEqualTo(1);
        assertThat(sim.control.spacedInterval()).as("twice the refill interval it had")
                .isEqualTo(2 * interval * MS);
        sim.steady(1, 10, 1);
        assertThat(sim.size).as("doubled, and at least what lasts the spaced interval at 1 value per ms (3000)")
                .isEqualTo(4000);

        // The row keeps queueing: each queued reservation halves this instance's refills again, up to the
        // largest block, the ceiling whatever the spacing.
        sim.steady(1, 40, 8);
        assertThat(sim.size).isEqualTo(100_000);
        long spaced = sim.control.spacedInterval();
        assertThat(spaced).isGreaterThan(100 * 1000 * MS);

        // The queue is gone: the spacing is given back 1/128 per refill, so the block stays at its largest while
        // it lasts less than twice the spaced interval, and comes back down only after many refills.
        sim.steady(1, 10, 10);
        assertThat(sim.size).isEqualTo(100_000);
        assertThat(sim.control.spacedInterval()).isLessThan(spaced).isGreaterThan(spaced * 9 / 10);
        sim.steady(1, 10, 2_000);
        assertThat(sim.control.spacedInterval()).as("given back in full").isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(sim.size - sim.point).as("back to what the rate needs: a refill every 1 to 2 s at 1 value per ms")
                .isBetween(1000L, 2000L);
    }

    @Test
    void aLatencySpikeAloneDoublesTheSpacingOnceAndItIsGivenBackWithinAFewHundredRefills() {
        Simulation sim = new Simulation(fleetMember());
        sim.steady(1, 10, 30);
        sim.steady(1, 500, 1);
        long spaced = sim.control.spacedInterval();
        assertThat(spaced).isGreaterThan(Duration.ofSeconds(1).toNanos());
        sim.steady(1, 10, 90);
        assertThat(sim.control.spacedInterval()).as("half given back after about 90 refills")
                .isBetween(spaced / 3, spaced * 2 / 3);
        sim.steady(1, 10, 400);
        assertThat(sim.control.spacedInterval()).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void theFirstBlockIsTheConfiguredBlockAndTheBlocksAfterItGrowOnlyAsTheReservationsMeasuredAskFor() {
        Simulation idle = new Simulation(fleetMember());
        idle.block(1, 0, 10);
        assertThat(idle.size).as("the configured block, not adaptive.max-block-size").isEqualTo(1000);
        assertThat(idle.point).as("a quarter of it").isEqualTo(250);
        idle.block(1, 750, 10);
        assertThat(idle.size).as("750 values in 0.75 s: doubled, as for any instance alone").isEqualTo(2000);

        // The first block took 10 s, behind a thousand other instances' first reservations: still the configured
        // block, as nothing was measured before it. The wait it measured is the start-up queue (not capped at the
        // 5 s acquire timeout): the refill starts at once, and the next block lasts eight such queues at 1 value per
        // ms, below the largest block.
        Simulation queued = new Simulation(fleetMember());
        queued.block(1, 0, 10_000);
        assertThat(queued.size).isEqualTo(1000);
        assertThat(queued.point).as("a lead of 20,000 values, clamped to the block").isEqualTo(999);
        queued.block(1, 750, 10);
        assertThat(queued.size).as("1 value per ms x 10 s x 8").isEqualTo(80_000);

        // A reservation that waited 30 ms behind others, in the steady state: the block grows to what the spaced
        // interval needs at the rate, far below the largest block.
        idle.steady(1, 10, 5);
        long before = idle.size;
        idle.steady(1, 40, 1);
        idle.steady(1, 10, 1);
        assertThat(idle.control.queuedReservations()).isEqualTo(1);
        assertThat(idle.size).isGreaterThan(before).isLessThanOrEqualTo(8000L);
    }

    @Test
    void theReasonForTheFirstBlockNamesTheConfiguredBlockAndWhatLaterBlocksFollow() {
        assertThat(new RefillControl(fleetMember(), true).firstBlockReason()).isEqualTo("block-size 1000, as nothing is"
                + " measured before the first block; later blocks follow the rate and the row's queue, up to"
                + " adaptive.max-block-size 100000");
        assertThat(new RefillControl(fleetMember().toBuilder().adaptive(false).build(), true).firstBlockReason())
                .isEqualTo("block-size 1000 (adaptive sizing is off)");
        assertThat(new RefillControl(fleetMember(), false).firstBlockReason())
                .isEqualTo("block-size 1000 (the store serves blocks of its own size only)");
        RefillControl fixed = new RefillControl(fleetMember().toBuilder().adaptive(false).build(), true);
        assertThat(fixed.beforeReservation(0, 0)).as("blocks that do not adapt keep their size").isEqualTo(1000);
    }

    @Test
    void theReasonForAFirstBlockSizedByTheQueueAtTheRowNamesThatQueue() {
        RefillControl sized = new RefillControl(fleetMember(), true);
        sized.beforeReservation(0, 0);
        assertThat(sized.sizeForQueue(1000, 90 * MS, 8, 500)).isEqualTo(40_720);
        assertThat(sized.firstBlockReason()).isEqualTo("8 ahead and 500 behind at the row, 10.0 ms a transaction:"
                + " eight turns of that fleet at the rate, at least block-size 1000, at most adaptive.max-block-size"
                + " 100000");

        RefillControl untimed = new RefillControl(fleetMember(), true);
        untimed.beforeReservation(0, 0);
        assertThat(untimed.sizeForQueue(1000, 20 * MS, 2, 500)).isEqualTo(1000);
        assertThat(untimed.firstBlockReason()).isEqualTo("block-size 1000, as nothing is measured before the first"
                + " block (2 ahead and 500 behind at the row, too few ahead to time it); later blocks follow the rate"
                + " and the row's queue, up to adaptive.max-block-size 100000");
    }
}
