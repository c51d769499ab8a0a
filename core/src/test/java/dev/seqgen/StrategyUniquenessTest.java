package dev.seqgen;

import dev.seqgen.testing.InMemorySequenceStore;
import dev.seqgen.testing.StrategyHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Every strategy over the in-memory store: more than a million values, three generators, eight threads each. */
class StrategyUniquenessTest {

    private static final int REGISTRIES = 3;
    private static final int THREADS_PER_REGISTRY = 8;
    private static final int VALUES_PER_THREAD = 42_000; // 3 x 8 x 42,000 = 1,008,000 values

    @ParameterizedTest(name = "{0}")
    @EnumSource(Strategy.class)
    void neverIssuesTheSameValueTwiceAcrossThreeGeneratorsAndTwentyFourThreads(Strategy strategy) throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore();
        // Small fixed blocks, so that blocks run out concurrently thousands of times (adaptive sequences have their
        // own uniqueness test in AdaptiveRefillTest).
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(97).lowWatermark(30)
                .adaptive(false).build();

        StrategyHarness.Outcome outcome = StrategyHarness.run(store, settings, "orders", REGISTRIES,
                THREADS_PER_REGISTRY, VALUES_PER_THREAD, work -> {
                    InMemorySequenceStore.Transaction tx = store.begin();
                    long value = work.apply(tx);
                    tx.commit();
                    return value;
                });

        assertThat(outcome.sortedValues()).hasSize(REGISTRIES * THREADS_PER_REGISTRY * VALUES_PER_THREAD);
        if (strategy == Strategy.SYNC || strategy == Strategy.ASYNC) {
            assertThat(outcome.discarded()).isZero();
            assertThat(outcome.finalNextValue()).isEqualTo(1 + outcome.sortedValues().length);
        } else {
            // Only the tails in hand at close can be lost: at most one block (plus a prefetched one) per generator.
            assertThat(outcome.discarded()).isLessThanOrEqualTo(REGISTRIES * 2L * 97);
        }
    }
}
