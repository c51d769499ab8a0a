package dev.seqgen.regression;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Regression, found by {@link BlockHandOffStressTest}: a {@code nextValues(k)} call of BATCH or ASYNC_BATCH
 * that took part of its values from the block in hand and then failed (the sequence closed, the store down
 * past the acquire timeout, the maximum reached) threw away the values it had taken but still counted them
 * in {@code stats().issued()} (and the {@code seqgen.ids.issued} meter), and not in {@code discarded()}, so
 * the counters claimed values had been handed out that no caller ever received.
 */
class FailedBulkCallCountedItsValuesAsIssuedTest {

    private final InMemorySequenceStore store = new InMemorySequenceStore();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC_BATCH"})
    void valuesTakenByABulkCallThatHitTheMaximumAreDiscardedNotIssued(Strategy strategy) {
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(0)
                .maxValue(10).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            for (int i = 0; i < 8; i++) {
                orders.next();
            }
            assertThatThrownBy(() -> orders.nextValues(5)).isInstanceOf(SequenceExhaustedException.class);

            assertThat(orders.stats().issued()).as("values callers received").isEqualTo(8);
            assertThat(orders.stats().discarded()).as("9 and 10, taken by the failed call").isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC_BATCH"})
    void valuesTakenByABulkCallThatTimedOutAreDiscardedNotIssued(Strategy strategy) {
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(0)
                .acquireTimeout(Duration.ofMillis(100)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            for (int i = 0; i < 8; i++) {
                orders.next();
            }
            store.down(true);
            assertThatThrownBy(() -> orders.nextValues(5)).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'");
            store.down(false);

            assertThat(orders.stats().issued()).isEqualTo(8);
            assertThat(orders.stats().discarded()).isEqualTo(2);
            assertThat(orders.next()).as("works again once the store is back").isEqualTo(11);
            assertThat(orders.stats().issued()).isEqualTo(9);
        }
    }
}
