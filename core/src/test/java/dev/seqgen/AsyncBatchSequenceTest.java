package dev.seqgen;

import dev.seqgen.testing.GatedStore;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class AsyncBatchSequenceTest {

    /**
     * Takes 10 blocks of values from a store that answers in 20 ms. ASYNC_BATCH's caller is paced by events, not
     * by time: before it takes the last value in hand it waits (outside the sequence, with a deadline) until the
     * background refill has landed, as a caller slower than the refill would find it, whatever the machine's load.
     * Then no call waits: the refill started in the background at the trigger and was ready. BATCH has no
     * background refill, so its callers wait once per block.
     */
    @Test
    void callersDoNotWaitWhileTheBackgroundRefillIsInTime() {
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofMillis(20));
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(1000)
                .lowWatermark(900).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            Set<Long> seen = new HashSet<>();
            for (int i = 0; i < 10_000; i++) {
                if (orders.stats().remaining() < 2) {
                    await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().remaining() >= 2);
                }
                assertThat(seen.add(orders.next())).isTrue();
            }
            assertThat(orders.stats().waits()).as("calls that waited").isZero();
            assertThat(orders.stats().lateRefills()).isZero();
        }
    }

    @Test
    void aCallerWaitingForTheFirstBlockIsNotALateRefill() throws Exception {
        // The first reservation (the start-up prefetch) is held until the first caller waits for it.
        GatedStore store = new GatedStore(new InMemorySequenceStore(), 1);
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(100)
                .acquireTimeout(Duration.ofMinutes(1)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            store.awaitGatedCall();
            FutureTask<Long> first = new FutureTask<>(orders::next);
            Thread caller = new Thread(first);
            caller.start();
            await().atMost(Duration.ofMinutes(1)).until(() -> caller.getState() == Thread.State.TIMED_WAITING);
            store.open();
            assertThat(first.get(1, TimeUnit.MINUTES)).isEqualTo(1);
            assertThat(orders.stats().waits()).as("the first caller waited for the first block").isEqualTo(1);
            assertThat(orders.stats().lateRefills()).as("not a refill that came late").isZero();
        }
    }

    @Test
    void batchCallersWaitOncePerBlock() {
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofMillis(20));
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(1000).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            for (int i = 0; i < 10_000; i++) {
                orders.next();
            }
            assertThat(orders.stats().waits()).isEqualTo(10);
        }
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
            // Every store call during the outage failed; the refill thread made at least one, however late it ran.
            await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().reservationFailures() > 0);

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
