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

    /**
     * The goal of hotspot-free keys: a million bit-reversed ids from four generators on one row, cut into 64 equal
     * ranges of the positive longs, put 1/64 of them (within 5 %) in every range; sequential ids would all be in the
     * first.
     */
    @Test
    void aMillionKeysFromFourGeneratorsFillSixtyFourRangesEvenly() throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().keyOrder(KeyOrder.BIT_REVERSED).build();
        SequenceRegistry[] registries = new SequenceRegistry[4];
        for (int i = 0; i < registries.length; i++) {
            registries[i] = SequenceRegistry.builder(store).defaults(settings).build();
        }
        try {
            long[] keys = Concurrently.run(4, thread -> {
                Sequence orders = registries[thread].sequence("orders");
                long[] mine = new long[250_000];
                for (int i = 0; i < mine.length; i++) {
                    mine[i] = orders.next();
                }
                return mine;
            });
            Concurrently.assertUnique(keys);
            long[] perRange = new long[64];
            for (long key : keys) {
                perRange[(int) (key >>> 57)]++;
            }
            double expected = keys.length / 64.0;
            for (int range = 0; range < perRange.length; range++) {
                assertThat((double) perRange[range]).as("range %d of 64", range)
                        .isBetween(expected * 0.95, expected * 1.05);
            }
        } finally {
            for (SequenceRegistry registry : registries) {
                registry.close();
            }
        }
    }

    /**
     * A skip range is never handed out, by any path: key(1) = 2^62 and key(2) = 2^61 lie in the range
     * 2^61..2^62, so the first values are the keys of the counters 3, 4, 5, ...; the counters 1 and 2 stay unused.
     */
    @ParameterizedTest
    @EnumSource(Strategy.class)
    void keysInTheSkipRangeAreNeverHandedOut(Strategy strategy) {
        InMemorySequenceStore store = new InMemorySequenceStore();
        KeyRange skip = KeyRange.of(1L << 61, 1L << 62);
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).keyOrder(KeyOrder.BIT_REVERSED)
                .skipRange(skip).blockSize(4).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            long[] values;
            if (strategy == Strategy.SYNC) {
                InMemorySequenceStore.Transaction tx = store.begin();
                values = LongStream.concat(LongStream.of(orders.nextInTransaction(tx)),
                        Arrays.stream(orders.nextValuesInTransaction(tx, 6))).toArray();
                tx.commit();
            } else {
                values = LongStream.concat(LongStream.of(orders.next()), Arrays.stream(orders.nextValues(6))).toArray();
            }
            assertThat(values).hasSize(7).doesNotHaveDuplicates();
            assertThat(Arrays.stream(values).filter(skip::contains).toArray()).as("values in the range").isEmpty();
            assertThat(Arrays.stream(values).map(KeyOrder.BIT_REVERSED::counter).toArray())
                    .as("counters 1 and 2 passed over").startsWith(3);
            assertThat(orders.toString()).contains("skipping " + skip);
        }
    }

    @Test
    void aSkipRangeIsForBitReversedKeysAndHoldsAtMostHalfOfThem() {
        assertThat(KeyRange.valueOf(" 1..99999 ")).isEqualTo(KeyRange.of(1, 99_999)).hasToString("1..99999");
        assertThat(KeyRange.valueOf("none")).isEqualTo(KeyRange.NONE).hasToString("none");
        SequenceSettings sequential = SequenceSettings.builder().skipRange(KeyRange.of(1, 10)).build();
        assertThatThrownBy(() -> sequential.validateFor("orders"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'skip-range'")
                .hasMessageContaining("sequence 'orders'").hasMessageContaining("needs key-order bit-reversed");
        try (SequenceRegistry registry = SequenceRegistry.builder(new InMemorySequenceStore()).defaults(sequential)
                .build()) {
            assertThatThrownBy(() -> registry.sequence("orders")).as("refused when the sequence is created")
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'skip-range'");
        }
        for (String text : new String[] {"0..10", "10..1", "1..4611686018427387905", "1-10", "a..b"}) {
            assertThatThrownBy(() -> KeyRange.valueOf(text)).as(text)
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'skip-range'");
        }
        assertThat(KeyRange.of(1, (1L << 62))).as("exactly 2^62 values").isNotNull();
    }
}
