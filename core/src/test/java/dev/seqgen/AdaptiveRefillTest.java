package dev.seqgen;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.GatedStore;
import dev.seqgen.testing.InMemorySequenceStore;
import dev.seqgen.testing.StrategyHarness;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
    void aCallerThatFindsTheBlockEmptyCountsALateRefillAndTheRefillPointMovesUpToTheLead() throws Exception {
        // Time is the test's: the caller takes one value per microsecond, and the first background refill after
        // the first block is held at a gate until the caller has found its block empty (a late refill, forced),
        // then answers 20 ms later. The lead that needs (1 value/us x 20 ms x the doubled margin) is far more than
        // the block, so the refill point moves up to the whole block (its maximum is its size: the block cannot
        // grow), and stays there while the caller keeps that pace.
        AtomicLong now = new AtomicLong();
        GatedStore store = new GatedStore(new InMemorySequenceStore(), 2);
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(100)
                .adaptiveMaxBlockSize(100).acquireTimeout(Duration.ofMinutes(1)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).ticker(now::get)
                .build()) {
            Sequence orders = registry.sequence("orders");
            assertThat(orders.stats().refillPoint()).as("the low watermark before any measurement").isEqualTo(25);
            await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().remaining() == 100);
            CompletableFuture<long[]> caller = CompletableFuture.supplyAsync(() -> LongStream.range(0, 1_000)
                    .map(i -> {
                        now.addAndGet(TimeUnit.MICROSECONDS.toNanos(1));
                        return orders.next();
                    }).toArray(), Concurrently.OWN_THREAD);
            store.awaitGatedCall();
            await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().lateRefills() == 1);
            now.addAndGet(TimeUnit.MILLISECONDS.toNanos(20));
            store.open();
            Concurrently.assertUnique(caller.get(1, TimeUnit.MINUTES));

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
            // (the bound checked with a wide margin, 30 s against a hang: this is a shared machine, and no speed is measured
            // here).
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
            assertThat(Duration.ofNanos(longestCall)).isLessThan(Duration.ofMillis(300).plusSeconds(30));

            store.down(false);
            long[] after = Concurrently.run(4, thread -> LongStream.range(0, 2_000).map(i -> orders.next()).toArray());
            long[] all = LongStream.concat(LongStream.of(before), LongStream.of(after)).toArray();
            Concurrently.assertUnique(all);
            assertThat(orders.stats().blockSize()).isBetween(50L, 400L);
        }
    }
}
