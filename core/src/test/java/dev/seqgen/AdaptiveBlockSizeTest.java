package dev.seqgen;

import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class AdaptiveBlockSizeTest {

    private final AtomicLong now = new AtomicLong();
    private final InMemorySequenceStore store = new InMemorySequenceStore();

    /** Takes values until the next refill and returns the size of the block it reserved. */
    private static long nextBlock(Sequence sequence) {
        long before = sequence.stats().reservations();
        while (sequence.stats().reservations() == before) {
            sequence.next();
        }
        return sequence.stats().blockEnd() - sequence.stats().blockFirst();
    }

    @Test
    void growsWhenRefillsComeFasterThanTheTargetAndShrinksWhenSlowerNeverPastTheBounds() {
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).adaptive(true)
                .adaptiveMaxBlockSize(80).adaptiveTargetRefillInterval(Duration.ofSeconds(1)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).ticker(now::get).build()) {
            Sequence orders = registry.sequence("orders");
            List<Long> sizes = new ArrayList<>();
            sizes.add(nextBlock(orders));
            for (int i = 0; i < 5; i++) {
                now.addAndGet(Duration.ofMillis(100).toNanos()); // faster than the 1 s target
                sizes.add(nextBlock(orders));
            }
            for (int i = 0; i < 5; i++) {
                now.addAndGet(Duration.ofSeconds(5).toNanos()); // slower than twice the target
                sizes.add(nextBlock(orders));
            }
            assertThat(sizes).containsExactly(10L, 20L, 40L, 80L, 80L, 80L, 40L, 20L, 10L, 10L, 10L);
        }
    }

    @Test
    void keepsTheConfiguredBlockSizeWhenNotAdaptive() {
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).ticker(now::get).build()) {
            Sequence orders = registry.sequence("orders");
            for (int i = 0; i < 4; i++) {
                assertThat(nextBlock(orders)).isEqualTo(10);
            }
        }
    }
}
