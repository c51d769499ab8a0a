package dev.seqgen;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.ForwardingSequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-up queue (see {@link RefillControl}, "The first block and the start-up queue") on the test's
 * {@link Ticker}: a row whose reservations take, one after the other, the latencies the test lists (where an instance
 * stood in a fleet's queue), the background refills run on the caller's thread, and a caller that takes one value per
 * simulated millisecond, the prior rate of the default settings (1,000 values per 1 s target interval).
 */
class StartUpQueueTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong now = new AtomicLong();

    /** A row whose reservations take the listed latencies on the test's clock, then 10 ms each. */
    private final class QueuedRow extends ForwardingSequenceStore {

        private final Deque<Long> latencies = new ArrayDeque<>();
        final List<Long> sizes = new ArrayList<>();

        QueuedRow(long... latenciesMs) {
            super(new InMemorySequenceStore());
            for (long latency : latenciesMs) {
                latencies.add(latency * MS);
            }
        }

        /** What the row's lock queue shows each sized reservation in turn: {ms waited, ahead, behind}; none: unknown. */
        final Deque<long[]> queues = new ArrayDeque<>();

        /** What the row's lock queue shows each look at it in turn ({@link #queuedAt}); none: unknown. */
        final Deque<Integer> queued = new ArrayDeque<>();

        /** Runs at each look at the queue, before it is answered. */
        Runnable atLook = () -> { };

        @Override
        public int queuedAt(String sequence) {
            atLook.run();
            Integer seen = queued.poll();
            return seen == null ? -1 : seen;
        }

        @Override
        public ReservedRange reserve(String sequence, long count, long maxValue) {
            Long latency = latencies.poll();
            now.addAndGet(latency == null ? 10 * MS : latency);
            sizes.add(count);
            return delegate.reserve(sequence, count, maxValue);
        }

        @Override
        public ReservedRange reserveSized(String sequence, Sizing sizing, long maxValue) {
            long[] seen = queues.poll();
            return seen == null ? super.reserveSized(sequence, sizing, maxValue)
                    : reserve(sequence, sizing.size(seen[0] * MS, (int) seen[1], (int) seen[2]), maxValue);
        }
    }

    @Test
    void anInstanceWithAQueueBehindItIsReadyWithOneBlockSizedByTheFleetAtTheRow() {
        // Served after 8 others in 90 ms (10 ms a transaction), 500 queued behind it: a fleet of 509, 5.09 s a turn.
        QueuedRow row = new QueuedRow(90);
        row.queues.add(new long[] {90, 8, 500});
        row.queued.add(499); // the next one holds the row: the whole fleet had arrived
        try (SequenceRegistry registry = warmedUp(row)) {
            Sequence orders = registry.sequence("orders");
            assertThat(row.sizes).as("one block, eight turns of the fleet at 1 value per ms").containsExactly(40_720L);
            assertThat(row.queued).as("the warm-up looked at the queue once").isEmpty();

            assertThat(takeIncreasing(orders, 5_000, now)).isTrue();
            assertThat(row.sizes).as("no reservation while the queue behind (5 s) drains").hasSize(1);
            // Its refill phase: the queue behind (5 s of 40.72 s) plus 8 / 509 of the block, 5,640 values.
            assertThat(orders.stats().refillPoint()).isEqualTo(40_720 - 5_640);
            assertThat(takeIncreasing(orders, 50_000, now)).isTrue();
            assertThat(orders.stats().waits()).as("no caller waited").isZero();
            assertThat(row.sizes).as("the next block came in time").hasSizeGreaterThan(1);
        }
    }

    @Test
    void anInstanceServedWhileTheFleetIsStillArrivingTakesItsSecondBlockBeforeItIsReady() {
        // 140 behind it while it held the row, then 400 and 700 at its looks (every four of the row's transactions):
        // a block for 149 (11.92 s) does not last twice the 7 s its refill would wait behind the 700.
        QueuedRow row = new QueuedRow(90, 4_010);
        row.queues.add(new long[] {90, 8, 140});
        row.queues.add(new long[] {4_010, 400, 1_591});
        row.queued.addAll(List.of(400, 700));
        try (SequenceRegistry registry = warmedUp(row)) {
            Sequence orders = registry.sequence("orders");
            assertThat(row.sizes).as("the second block, sized by the fleet of 1,992 it waited in, before ready")
                    .containsExactly(11_920L, 100_000L);
            assertThat(row.queued).as("no look once the block was seen not to last").isEmpty();
            assertThat(takeIncreasing(orders, 30_000, now)).isTrue();
            assertThat(orders.stats().waits()).as("no caller waited").isZero();
        }
    }

    @Test
    void anInstanceThatSawTheFleetArriveIsReadyWithOneBlockWhenItOutlastsTheLongestQueueSeen() {
        // The queue behind grew from 140 to 300, then shrank: the fleet stopped arriving, and the block for 149
        // (11.92 s) outlasts twice the 3 s of the 300. A second block would be one more transaction ahead of the
        // fleet's first ones, which every later instance would wait for.
        QueuedRow row = new QueuedRow(90);
        row.queues.add(new long[] {90, 8, 140});
        row.queued.addAll(List.of(300, 296));
        try (SequenceRegistry registry = warmedUp(row)) {
            Sequence orders = registry.sequence("orders");
            assertThat(row.sizes).as("ready with one block").containsExactly(11_920L);
            assertThat(row.queued).as("two looks").isEmpty();
            assertThat(takeIncreasing(orders, 30_000, now)).isTrue();
            assertThat(orders.stats().waits()).as("no caller waited").isZero();
        }
    }

    @Test
    void aWarmUpInterruptedWhileItWatchesTheQueueStopsLookingAndStaysInterrupted() {
        QueuedRow row = new QueuedRow(90);
        row.queues.add(new long[] {90, 8, 140});
        row.queued.addAll(List.of(300, 400, 500));
        row.atLook = () -> Thread.currentThread().interrupt();
        try (SequenceRegistry registry = warmedUp(row)) {
            assertThat(Thread.interrupted()).as("still interrupted, and cleared here").isTrue();
            assertThat(row.queued).as("one look, though the queue grew").containsExactly(400, 500);
            assertThat(row.sizes).containsExactly(11_920L);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anInstanceServedFirstWhileTheFleetArrivesWeighsItsSecondBlockAgainstTheLongestQueueSeenAndTakesAThird() {
        // Too few ahead to time the row at first; its second reservation, timed by the 20 ahead of it, saw 80 behind,
        // and 600 at its next look: two blocks for a fleet of 101 (9.08 s) do not last twice the 6 s of the 600.
        QueuedRow row = new QueuedRow(10, 210);
        row.queues.add(new long[] {10, 0, 5});
        row.queues.add(new long[] {210, 20, 80});
        row.queued.addAll(List.of(600, 590));
        try (SequenceRegistry registry = warmedUp(row)) {
            assertThat(row.sizes).as("block-size, a block for the 101 it saw, and a third for eight of the 6 s queues")
                    .containsExactly(1000L, 8_080L, 48_000L);
            assertThat(row.queued).as("one look").containsExactly(590);
        }
    }

    @Test
    void anInstanceNearTheFrontCannotTimeTheRowAndSizesItsSecondBlockByTheFleet() {
        QueuedRow row = new QueuedRow(30, 4_020);
        row.queues.add(new long[] {30, 2, 500});
        row.queues.add(new long[] {4_010, 400, 100});
        try (SequenceRegistry registry = warmedUp(row)) {
            assertThat(row.sizes).as("block-size first, as two ahead time the row too roughly; the second, timed by the"
                    + " 400 ahead of it, lasts eight turns of the fleet of 501").containsExactly(1000L, 40_080L);
        }
    }

    @Test
    void anInstanceServedLastIsReadyWithOneBlockSizedByTheFleet() {
        QueuedRow row = new QueuedRow(10_000, 10);
        row.queues.add(new long[] {10_000, 999, 0});
        try (SequenceRegistry registry = warmedUp(row)) {
            assertThat(row.sizes).as("nobody behind it: one block, eight turns of the fleet of 1,000")
                    .containsExactly(80_000L);
        }
    }

    @Test
    void threeReplicasStartingTogetherKeepTheConfiguredBlockSize() {
        QueuedRow row = new QueuedRow(10, 10);
        row.queues.add(new long[] {10, 1, 1});
        row.queues.add(new long[] {0, 0, 2});
        try (SequenceRegistry registry = warmedUp(row)) {
            Sequence orders = registry.sequence("orders");
            assertThat(row.sizes).as("a fleet of three is served in 30 ms: block-size lasts it").containsExactly(1000L,
                    1000L);
            assertThat(takeIncreasing(orders, 10_000, now)).isTrue();
            assertThat(orders.stats().highestReserved()).as("compact numbers").isLessThanOrEqualTo(10_000 + 3 * 1000);
        }
    }

    @Test
    void aFleetStartingTogetherSpreadsItsRefillsOverABlockInsteadOfOneBurstABlockLater() {
        // 2,000 instances at a 10 ms row: eight turns of the fleet would be 160 s, cut at the largest block (100 s at
        // the prior 1 value per ms). Without phases every refill would come 100 s less the lead after its first block,
        // all 2,000 within the 20 s the first blocks took: the row busy throughout.
        assertThat(busiestShareOfTheRow(2000, 60_000)).as("within a minute").isLessThan(0.25);
        // 1,000 instances: eight turns (80 s) fit the largest block, and the row stays about an eighth busy.
        assertThat(busiestShareOfTheRow(1000, 60_000)).isLessThan(0.15);
    }

    /**
     * The largest share of the row that a fleet of {@code instances} starting together keeps busy with its first
     * refills (one value per ms each, 10 ms a transaction) in any window of {@code windowMs}; each refill starts after
     * the queue behind its instance has drained and before its first block runs out.
     */
    private static double busiestShareOfTheRow(int instances, long windowMs) {
        long transaction = 10 * MS;
        List<Long> refillsMs = new ArrayList<>();
        for (int k = 0; k < instances; k++) {
            RefillControl control = new RefillControl(SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH)
                    .build(), true);
            int behind = instances - 1 - k;
            long size = control.sizeForQueue(control.beforeReservation(0, 0), k * transaction, k, behind);
            long point = control.afterReservation(size, (k + 1) * transaction);
            long arrivedMs = (k + 1) * 10L;
            long refillMs = arrivedMs + (size - point);
            if (k >= 8) { // the first eight cannot time the row: they take block-size and learn of the queue later
                assertThat(size - point).as("instance %d refills before its block runs out", k).isLessThan(size);
                refillsMs.add(refillMs);
            }
        }
        refillsMs.sort(null);
        // Timed by waited / (ahead + 1), the row looks a little faster to those near the front: a few of them refill
        // shortly before the start-up queue has drained, and are served after it.
        assertThat(refillsMs.stream().filter(refill -> refill < instances * 10L).count())
                .as("refills while the start-up queue drains").isLessThanOrEqualTo(instances / 50);
        int most = 0;
        for (int from = 0, to = 0; to < refillsMs.size(); to++) {
            while (refillsMs.get(to) - refillsMs.get(from) >= windowMs) {
                from++;
            }
            most = Math.max(most, to - from + 1);
        }
        return most * 10.0 / windowMs;
    }

    private SequenceRegistry registry(QueuedRow row) {
        return SequenceRegistry.builder(row).ticker(now::get).executor(Runnable::run).build();
    }

    /** A registry over the row whose sequence 'orders' is warmed up as the starter does, within 60 s. */
    private SequenceRegistry warmedUp(QueuedRow row) {
        SequenceRegistry registry = registry(row);
        registry.warmUp(List.of("orders"), Duration.ofSeconds(60));
        return registry;
    }

    /** Takes {@code count} values at one per millisecond; returns whether they were increasing and unique. */
    private static boolean takeIncreasing(Sequence sequence, long count, AtomicLong clock) {
        long last = 0;
        for (long i = 0; i < count; i++) {
            clock.addAndGet(MS);
            long value = sequence.next();
            if (value <= last) {
                return false;
            }
            last = value;
        }
        return true;
    }

    @Test
    void anInstanceAloneIsReadyWithTwoBlocksOfTheConfiguredSizeAndKeepsThatSize() {
        QueuedRow row = new QueuedRow(10, 10);
        try (SequenceRegistry registry = warmedUp(row)) {
            Sequence orders = registry.sequence("orders");
            assertThat(row.sizes).as("the first block and the second, both of block-size").containsExactly(1000L, 1000L);
            assertThat(orders.stats().remaining()).isEqualTo(2000);

            assertThat(takeIncreasing(orders, 60_000, now)).isTrue();
            assertThat(row.sizes).as("a minute at the prior rate: blocks of the configured size, compact numbers")
                    .allMatch(size -> size == 1000L);
            assertThat(orders.stats().highestReserved()).isLessThanOrEqualTo(60_000 + 2 * 1000);
            assertThat(orders.stats().waits()).isZero();
        }
    }

    @Test
    void anInstanceServedFirstLearnsOfTheQueueBehindItFromItsSecondBlockAndTakesAThirdBeforeItIsReady() {
        // Its first reservation was served at once; its second waited 10 s behind the first reservations of the rest
        // of the fleet.
        QueuedRow row = new QueuedRow(10, 10_000);
        try (SequenceRegistry registry = warmedUp(row)) {
            Sequence orders = registry.sequence("orders");
            assertThat(row.sizes).as("first and second of block-size (a 10 ms wait asks for no more); the third lasts"
                    + " eight 10 s queues at 1 value per ms").containsExactly(1000L, 1000L, 80_000L);
            assertThat(orders.stats().remaining()).as("all three in hand when the warm-up returns").isEqualTo(82_000);

            assertThat(takeIncreasing(orders, 82_000, now)).as("handed out in the order reserved").isTrue();
            assertThat(orders.stats().waits()).as("no caller waited").isZero();
            assertThat(row.sizes).as("the fourth block was reserved while the third lasted").hasSize(4);
        }
    }

    @Test
    void anInstanceServedLastSizesItsSecondBlockByTheQueueItWaitedInAndNeedsNoThird() {
        QueuedRow row = new QueuedRow(10_000, 10_000);
        try (SequenceRegistry registry = warmedUp(row)) {
            assertThat(row.sizes).containsExactly(1000L, 80_000L);
            assertThat(registry.sequence("orders").stats().remaining()).isEqualTo(81_000);
        }
    }

    @Test
    void aRowThatDoesNotAnswerWithinTheWarmUpLeavesTheFirstBlockInHandAndTheWarmUpReturns() {
        QueuedRow row = new QueuedRow(10, 120_000);
        try (SequenceRegistry registry = registry(row)) {
            // The executor runs the refill on this thread, so the 120 s reservation is over before the wait begins;
            // the warm-up's deadline has passed by then, and it returns with what is in hand without a third block.
            registry.warmUp(List.of("orders"), Duration.ofSeconds(60));
            assertThat(row.sizes).containsExactly(1000L, 1000L);
        }
    }

    @Test
    void withoutAWarmUpTheBlockAfterAQueuedReservationLastsEightQueuesAtTheMeasuredRate() {
        QueuedRow row = new QueuedRow(10, 10_000);
        try (SequenceRegistry registry = registry(row)) {
            Sequence orders = registry.sequence("orders");
            assertThat(takeIncreasing(orders, 5_000, now)).isTrue();
            // The caller found the first block empty while the second waited behind the queue, so the rate measured
            // over that window fell (by a quarter of the difference, 1 to 0.76 values per ms); the start-up queue is
            // the 10 s of the second reservation, not capped at the 5 s acquire timeout.
            assertThat(row.sizes.get(1)).as("the second, sized before the queue was seen").isEqualTo(2000L);
            assertThat(row.sizes.get(2)).as("eight 10 s queues at the rate measured").isBetween(60_000L, 80_000L);
        }
    }

    @Test
    void beforeAnyValueTheRateIsThePriorOneAndWaitingForTheRowIsNotReadAsASlowConsumer() {
        RefillControl control = new RefillControl(SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).build(),
                true);
        assertThat(control.beforeReservation(0, 0)).isEqualTo(1000);
        control.afterReservation(1000, 10_000 * MS, 10_000 * MS, 0);
        assertThat(control.startUpQueue()).isEqualTo(10_000 * MS);
        assertThat(control.lastsTheStartUpQueue(2000)).as("1 value per ms x 10 s x margin 2").isFalse();
        assertThat(control.lastsTheStartUpQueue(20_000)).isTrue();

        // Values flow from the block's arrival at 10 s: 750 in 750 ms is 1 value per ms, not 750 in 10.75 s.
        long size = control.beforeReservation(10_750 * MS, 750);
        assertThat(size).isEqualTo(80_000);
        control.afterReservation(size, 10 * MS, 10_760 * MS, 760);
        long next = control.beforeReservation(11_750 * MS, 1750);
        assertThat(next).as("the measured rate keeps it: 1 value per ms x 10 s x 8").isEqualTo(80_000);

        assertThat(new RefillControl(SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).adaptive(false).build(),
                true).lastsTheStartUpQueue(1)).as("blocks that do not adapt take no third block").isTrue();
    }
}
