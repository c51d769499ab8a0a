package dev.seqgen;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import dev.seqgen.testing.LogRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class CloseAndGiveBackTest {

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    private final InMemorySequenceStore store = new InMemorySequenceStore();
    private final SequenceSettings batch = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(100).build();

    @Test
    void unusedTailIsGivenBackWhenNobodyReservedAfterUs() {
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(batch).build();
        Sequence orders = registry.sequence("orders");
        for (int i = 0; i < 10; i++) {
            orders.next();
        }
        assertThat(store.nextValue("orders")).hasValue(101);
        registry.close();
        assertThat(store.nextValue("orders")).hasValue(11);
        assertThat(orders.stats().discarded()).isZero();
    }

    @Test
    void unusedTailIsKeptWhenAnotherGeneratorReservedAfterUs() {
        SequenceRegistry first = SequenceRegistry.builder(store).defaults(batch).build();
        SequenceRegistry second = SequenceRegistry.builder(store).defaults(batch).build();
        first.sequence("orders").next();
        assertThat(second.sequence("orders").next()).isEqualTo(101);

        first.close();
        assertThat(store.nextValue("orders")).as("not given back: 201 belongs to the second").hasValue(201);
        assertThat(store.keptRanges("orders")).as("kept for the fleet instead").containsExactly(new ReservedRange(2, 101));
        assertThat(first.sequence("orders").stats().discarded()).isZero();

        second.close();
        assertThat(store.nextValue("orders")).hasValue(102);
    }

    @Test
    void asyncBatchGivesBackItsTailAndItsPrefetchedBlockTogether() throws Exception {
        SequenceSettings asyncBatch = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(100)
                .lowWatermark(99).adaptive(false).build();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(asyncBatch).build();
        Sequence orders = registry.sequence("orders");
        assertThat(orders.next()).isEqualTo(1); // claims the trigger position: the second block is prefetched
        await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().remaining() == 199);
        assertThat(store.nextValue("orders")).hasValue(201);
        registry.close();
        assertThat(store.nextValue("orders")).hasValue(2);
    }

    @Test
    void aRefillThatFindsTheSequenceClosedIsNoWarningAndLosesNothing() throws Exception {
        // The first refill (the first block) runs at once; the next one waits in the queue until close() has begun.
        AtomicBoolean first = new AtomicBoolean(true);
        BlockingQueue<Runnable> queued = new LinkedBlockingQueue<>();
        Executor executor = task -> {
            if (first.getAndSet(false)) {
                task.run();
            } else {
                queued.add(task);
            }
        };
        SequenceSettings asyncBatch = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(100)
                .lowWatermark(99).adaptive(false).acquireTimeout(Duration.ofMinutes(1)).build();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(asyncBatch).executor(executor).build();
        Sequence orders = registry.sequence("orders");
        assertThat(orders.next()).isEqualTo(1); // claims the trigger position: the second block's refill is queued
        Runnable refill = queued.poll(1, TimeUnit.MINUTES);
        assertThat(refill).isNotNull();

        CompletableFuture<Void> closing = CompletableFuture.runAsync(registry::close, Concurrently.OWN_THREAD);
        // close() marks the sequence closed, then waits for the refill under way: run it only then.
        await().atMost(Duration.ofMinutes(1)).until(() -> ((AbstractSequence) orders).closed);
        refill.run();
        closing.get(1, TimeUnit.MINUTES);

        assertThat(logs.messages(Level.WARNING)).isEmpty();
        assertThat(logs.messages(Level.FINE)).anySatisfy(m -> assertThat(m).contains("sequence 'orders'")
                .contains("a background refill failed after the sequence was closed")
                .contains("the sequence is closed"));
        assertThat(store.nextValue("orders")).as("the block's tail given back, nothing reserved after close")
                .hasValue(2);
        assertThat(orders.stats().discarded()).isZero();
    }

    @Test
    void callsAfterCloseFailClearly() {
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(batch).build();
        Sequence orders = registry.sequence("orders");
        orders.next();
        registry.close();
        assertThatThrownBy(orders::next).isInstanceOf(SequenceUnavailableException.class)
                .hasMessageContaining("sequence 'orders'").hasMessageContaining("closed");
        assertThatThrownBy(() -> registry.sequence("invoices")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void registryHandsOutOneInstancePerNameAndRejectsConflictingSettings() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(batch)
                .sequence("invoices", SequenceSettings.builder().strategy(Strategy.SYNC).build()).build()) {
            assertThat(registry.sequence("orders")).isSameAs(registry.sequence("orders"));
            assertThat(registry.sequence("invoices").strategy()).isEqualTo(Strategy.SYNC);
            assertThat(registry.sequence("orders").strategy()).isEqualTo(Strategy.BATCH);
            assertThatThrownBy(() -> registry.sequence("orders",
                    SequenceSettings.builder().strategy(Strategy.ASYNC).acquireTimeout(Duration.ofSeconds(1)).build()))
                    .hasMessageContaining("sequences.orders");
        }
    }
}
