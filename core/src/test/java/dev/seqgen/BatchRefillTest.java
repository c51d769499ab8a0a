package dev.seqgen;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

class BatchRefillTest {

    /**
     * Eight threads exhaust blocks together over a slow store. If every caller that found the block empty
     * reserved its own block (a thundering herd), there would be up to eight reservations per exhaustion;
     * with one refiller and the others waiting for it there is one per block used.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC_BATCH"})
    void oneCallerRefillsWhileTheOthersWait(Strategy strategy) throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofMillis(10));
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(100).adaptive(false).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            long[] values = Concurrently.run(8, thread -> LongStream.range(0, 500).map(i -> orders.next()).toArray());
            Concurrently.assertUnique(values);
            // 4,000 values in blocks of 100: 40 blocks, plus at most one prefetched block not yet used.
            assertThat(store.reservations()).isBetween(40L, 41L);
        }
    }
}
