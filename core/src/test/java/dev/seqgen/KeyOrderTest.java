package dev.seqgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** Bit-reversed keys: a bijection of the positive longs, served by every strategy from sequential counters. */
class KeyOrderTest {

    @Test
    void bitReversalIsABijectionOfThePositiveLongsThatSpreadsConsecutiveCounters() {
        KeyOrder reversed = KeyOrder.BIT_REVERSED;
        assertThat(reversed.key(1)).isEqualTo(1L << 62);
        assertThat(reversed.key(2)).isEqualTo(1L << 61);
        assertThat(reversed.key(3)).isEqualTo((1L << 62) + (1L << 61));
        assertThat(reversed.key(SequenceSettings.LARGEST_MAX_VALUE)).isPositive();
        assertThat(reversed.key(0)).isZero();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < 100_000; i++) {
            long counter = random.nextLong(1, Long.MAX_VALUE);
            long key = reversed.key(counter);
            assertThat(key).isPositive();
            assertThat(reversed.key(key)).as("its own inverse").isEqualTo(counter);
        }
        Set<Long> keys = new HashSet<>();
        long[] firstThousand = LongStream.rangeClosed(1, 1000).map(reversed::key).toArray();
        Arrays.stream(firstThousand).forEach(keys::add);
        assertThat(keys).hasSize(1000);
        // Consecutive counters land in far-apart parts of the key space: the first 1000 keys fall into 512 of the
        // 1024 equal ranges of the positive longs, where sequential keys would all fall into the first.
        assertThat(Arrays.stream(firstThousand).map(key -> key >>> 53).distinct().count()).isGreaterThanOrEqualTo(512);
        assertThat(KeyOrder.SEQUENTIAL.key(42)).isEqualTo(42);
    }

    @ParameterizedTest
    @EnumSource(Strategy.class)
    void everyStrategyHandsOutTheImagesOfUniqueCountersFromTwoRegistries(Strategy strategy) throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).keyOrder(KeyOrder.BIT_REVERSED)
                .blockSize(20).build();
        try (SequenceRegistry first = SequenceRegistry.builder(store).defaults(settings).build();
                SequenceRegistry second = SequenceRegistry.builder(store).defaults(settings).build()) {
            long[] keys = Concurrently.run(8, thread -> {
                Sequence orders = (thread % 2 == 0 ? first : second).sequence("orders");
                long[] mine = new long[200];
                for (int i = 0; i < mine.length; i += 2) {
                    if (strategy == Strategy.SYNC) {
                        InMemorySequenceStore.Transaction tx = store.begin();
                        long[] two = orders.nextValuesInTransaction(tx, 2);
                        tx.commit();
                        mine[i] = two[0];
                        mine[i + 1] = two[1];
                    } else {
                        mine[i] = orders.next();
                        mine[i + 1] = orders.nextValues(1)[0];
                    }
                }
                return mine;
            });
            Concurrently.assertUnique(keys);
            assertThat(Arrays.stream(keys).min().orElseThrow()).isPositive();
            long[] counters = Concurrently.assertUnique(Arrays.stream(keys).map(KeyOrder.BIT_REVERSED::key).toArray());
            assertThat(counters[0]).isGreaterThanOrEqualTo(1);
            if (strategy == Strategy.SYNC) {
                Concurrently.assertContiguousFrom(1, counters);
            }
            assertThat(store.nextValue("orders").getAsLong()).as("the row counts counters")
                    .isGreaterThan(counters[counters.length - 1]);
        }
    }

    @Test
    void anInitialValueOf0IsRefusedForBitReversedKeys() {
        assertThatThrownBy(() -> SequenceSettings.builder().keyOrder(KeyOrder.BIT_REVERSED).initialValue(0).build())
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'initial-value'")
                .hasMessageContaining("bit-reversed");
    }
}
