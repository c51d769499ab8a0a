package dev.seqgen;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import dev.seqgen.testing.StrategyHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** ASYNC_BATCH with its adaptive defaults, driven through the sequence: uniqueness, late refills, outages. */
class AdaptiveRefillTest {

    @Test
    void adaptiveBlocksNeverIssueAValueTwiceAcrossThreeGeneratorsAndTwentyFourThreads() throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofMillis(1));
        // Blocks from 7 to 300 values that change size all the time, refill points that move with them.
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(7)
                .adaptiveMaxBlockSize(300).adaptiveTargetRefillInterval(Duration.ofMillis(2)).build();
        assertThat(settings.adaptive()).isTrue();

        StrategyHarness.Outcome outcome = StrategyHarness.run(store, settings, "orders", 3, 8, 2_000, work -> {
            InMemorySequenceStore.Transaction tx = store.begin();
            long value = work.apply(tx);
            tx.commit();
            return value;
        });

        assertThat(outcome.sortedValues()).hasSize(3 * 8 * 2_000).doesNotHaveDuplicates();
        // Only what is in hand at close can be lost: at most a block and a prefetched one per generator.
        assertThat(outcome.discarded()).isLessThanOrEqualTo(3 * 2L * 300);
    }

    @Test
    void aCallerThatFindsTheBlockEmptyCountsALateRefillAndTheRefillPointMovesUpToTheLead() {
        // A caller that never pauses empties 100 values long before a 20 ms store answers: every refill is late
        // until the refill point is the whole block (the block cannot grow: its maximum is its size).
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofMillis(20));
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(100)
                .adaptiveMaxBlockSize(100).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            assertThat(orders.stats().refillPoint()).as("the low watermark before any measurement").isEqualTo(25);
            long[] values = LongStream.range(0, 1_000).map(i -> orders.next()).toArray();
            Concurrently.assertUnique(values);
            SequenceStats stats = orders.stats();
            assertThat(stats.lateRefills()).isPositive().isLessThanOrEqualTo(stats.waits());
            assertThat(stats.refillPoint()).isEqualTo(99);
            assertThat(stats.blockSize()).isEqualTo(100);
        }
    }

    @Test
    void otherStrategiesReportNoRefillPointAndNoLateRefills() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            LongStream.range(0, 100).forEach(i -> orders.next());
            assertThat(orders.stats().refillPoint()).isZero();
            assertThat(orders.stats().lateRefills()).isZero();
            assertThat(orders.stats().blockSize()).as("BATCH is not adaptive by default").isEqualTo(10);
        }
    }

    @Test
    void duringAnOutageCallersFailWithinTheAcquireTimeoutAndTheSequenceRecoversAfterwards() throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofMillis(2));
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(50)
                .adaptiveMaxBlockSize(400).acquireTimeout(Duration.ofMillis(300)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            long[] before = Concurrently.run(4, thread -> LongStream.range(0, 2_000).map(i -> orders.next()).toArray());

            store.down(true);
            // What is in hand is served; then every caller gets the outage, after at most its acquire timeout
            // (the bound checked with a wide margin: this is a shared machine, and no speed is measured here).
            long longestCall = 0;
            SequenceUnavailableException outage = null;
            for (int i = 0; i < 1_000_000 && outage == null; i++) {
                long start = System.nanoTime();
                try {
                    orders.next();
                } catch (SequenceUnavailableException e) {
                    outage = e;
                }
                longestCall = Math.max(longestCall, System.nanoTime() - start);
            }
            assertThat(outage).isNotNull();
            assertThat(outage).hasMessageContaining("orders");
            assertThat(Duration.ofNanos(longestCall)).isLessThan(Duration.ofMillis(300).plusSeconds(5));

            store.down(false);
            long[] after = Concurrently.run(4, thread -> LongStream.range(0, 2_000).map(i -> orders.next()).toArray());
            long[] all = LongStream.concat(LongStream.of(before), LongStream.of(after)).toArray();
            Concurrently.assertUnique(all);
            assertThat(orders.stats().blockSize()).isBetween(50L, 400L);
        }
    }
}
