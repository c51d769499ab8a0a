package dev.seqgen;

import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExhaustionTest {

    private final InMemorySequenceStore store = new InMemorySequenceStore();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"ASYNC", "BATCH", "ASYNC_BATCH"})
    void handsOutEveryValueUpToTheMaximumThenFailsWithoutWrapping(Strategy strategy) {
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(3)
                .maxValue(25).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            long[] values = LongStream.range(0, 25).map(i -> orders.next()).toArray();
            assertThat(values).containsExactlyInAnyOrder(LongStream.rangeClosed(1, 25).toArray());
            assertThatThrownBy(orders::next).isInstanceOf(SequenceExhaustedException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining("25");
            assertThat(store.nextValue("orders")).hasValue(26);
        }
    }

    @Test
    void intRangeEndsAtIntegerMaxValue() {
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(4)
                .initialValue(Integer.MAX_VALUE - 5L).maxValue(SequenceSettings.INT_MAX_VALUE).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence ids = registry.sequence("ids");
            long[] values = LongStream.range(0, 6).map(i -> ids.next()).toArray();
            assertThat(values).containsExactly(LongStream.rangeClosed(Integer.MAX_VALUE - 5L, Integer.MAX_VALUE).toArray());
            assertThatThrownBy(ids::next).isInstanceOf(SequenceExhaustedException.class);
        }
    }

    @Test
    void syncTakesTheLastValueThenFails() {
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.SYNC)
                .initialValue(SequenceSettings.LARGEST_MAX_VALUE - 1).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence invoices = registry.sequence("invoices");
            InMemorySequenceStore.Transaction tx = store.begin();
            assertThat(invoices.nextValuesInTransaction(tx, 2))
                    .containsExactly(Long.MAX_VALUE - 2, Long.MAX_VALUE - 1);
            assertThatThrownBy(() -> invoices.nextInTransaction(tx)).isInstanceOf(SequenceExhaustedException.class);
            tx.rollback();
        }
    }
}
