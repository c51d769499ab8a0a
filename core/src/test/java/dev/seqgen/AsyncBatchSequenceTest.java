package dev.seqgen;

import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class AsyncBatchSequenceTest {

    /**
     * Takes 10 blocks of values at a pace the refill can follow (a 2 ms pause every 50 values, so the 900
     * values after the trigger take at least 36 ms against a 20 ms store). Counts how often a caller had to
     * wait: ASYNC_BATCH at most once (the first block), BATCH once per block.
     */
    private static long waitsWhileTakingTenPacedBlocks(Strategy strategy) throws InterruptedException {
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofMillis(20));
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(1000).lowWatermark(900)
                .build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 10_000; i++) {
                assertThat(seen.add(orders.next())).isTrue();
                if (i % 50 == 49) {
                    Thread.sleep(2);
                }
            }
            return orders.stats().waits();
        }
    }

    @Test
    void slowStoreDoesNotMakeCallersWaitWhileThePrefetchIsInTime() throws Exception {
        long asyncBatchWaits = waitsWhileTakingTenPacedBlocks(Strategy.ASYNC_BATCH);
        long batchWaits = waitsWhileTakingTenPacedBlocks(Strategy.BATCH);
        assertThat(asyncBatchWaits).isLessThanOrEqualTo(1);
        assertThat(batchWaits).isEqualTo(10);
    }

    @Test
    void deadStoreEndsInTheAcquireTimeoutErrorAndTheSequenceRecoversWhenItComesBack() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(100)
                .lowWatermark(10).acquireTimeout(Duration.ofMillis(300)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            orders.next();
            store.down(true);
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                // The block in hand keeps serving during the outage.
                for (int i = 0; i < 99; i++) {
                    orders.next();
                }
                assertThatThrownBy(orders::next).isInstanceOf(SequenceUnavailableException.class)
                        .hasMessageContaining("sequence 'orders'");
            });
            assertThat(orders.stats().retries()).isPositive();

            store.down(false);
            long recovered = orders.next();
            assertThat(recovered).isGreaterThan(100);
        }
    }

    @Test
    void transientErrorsAreRetriedWithinOneReservation() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC).build()).build()) {
            Sequence orders = registry.sequence("orders");
            store.failNextTransiently(3);
            assertThat(orders.next()).isEqualTo(1);
            assertThat(orders.stats().retries()).isEqualTo(3);
            assertThat(orders.stats().reservations()).isEqualTo(1);
            assertThat(store.nextValue("orders")).hasValue(2);
        }
    }

    @Test
    void permanentErrorSurfacesAtOnceNamingTheSequenceAndTheCause() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.BATCH).build()).build()) {
            Sequence orders = registry.sequence("orders");
            store.failPermanently(new IllegalStateException("permission denied on table seqgen_sequences"));
            assertThatThrownBy(orders::next).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining("permission denied");
            assertThat(orders.stats().retries()).isZero();
        }
    }
}
