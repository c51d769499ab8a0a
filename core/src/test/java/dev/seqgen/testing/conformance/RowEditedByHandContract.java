package dev.seqgen.testing.conformance;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What seqgen does when someone edits the counter row by hand ({@link StoreUnderTest#setNextValue}), or restores it
 * from a backup.
 *
 * <ul>
 *   <li>Moved forward: the values skipped are a gap, nothing else.
 *   <li>Moved back below values this generator reserved: the next reservation sees it (the store hands out a range
 *       that starts at or below this generator's highest reserved value, which no give-back can cause) and fails with
 *       a {@link SequenceUnavailableException} that says what happened and which value the row needs, instead of
 *       handing the values out again. The values already in hand are still served: this generator reserved them
 *       before the edit. Once the row is set right, values flow again.
 *   <li>Moved back below values only other generators took (other JVMs, or an earlier run of this one): no generator
 *       can see that from the row, which is the only shared truth, so those values are issued again. A primary key on
 *       the application's table turns that into an insert error instead of silent duplicates; this test pins the
 *       behaviour so that nobody mistakes the guard above for more than it is.
 *   <li>Set to {@code Long.MAX_VALUE}: exhausted for every strategy, never wrapped.
 * </ul>
 */
public interface RowEditedByHandContract extends StoreContract {

    List<Strategy> OWN_TRANSACTION_STRATEGIES = List.of(Strategy.ASYNC, Strategy.BATCH, Strategy.ASYNC_BATCH);

    /** Fixed blocks of 10, so that the values in hand before the edit are known. */
    default SequenceSettings editedSettings(Strategy strategy) {
        return settings(strategy).blockSize(10).lowWatermark(5).adaptive(false).build();
    }

    @TestFactory
    default Stream<DynamicTest> aRowMovedBackBelowWhatThisGeneratorReservedIsRefusedNotReissued() {
        return perStrategy(OWN_TRANSACTION_STRATEGIES, strategy -> {
            SequenceStore store = subject().newStore();
            try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(editedSettings(strategy))
                    .build()) {
                Sequence orders = registry.sequence("orders");
                LongStream.Builder values = LongStream.builder();
                for (int i = 0; i < 25; i++) {
                    values.add(orders.next());
                }
                if (strategy == Strategy.ASYNC_BATCH) {
                    awaitPrefetchedBlock(orders); // 25 passed the low watermark of the third block
                }
                long reserved = orders.stats().highestReserved();
                assertThat(store.nextValue("orders")).hasValue(reserved + 1);

                subject().setNextValue(store, "orders", 5);

                SequenceUnavailableException refused = null;
                int servedAfterTheEdit = 0;
                for (int i = 0; i < 100 && refused == null; i++) {
                    try {
                        values.add(orders.next()); // what is in hand was reserved before the edit
                        servedAfterTheEdit++;
                    } catch (SequenceUnavailableException e) {
                        refused = e;
                    }
                }
                assertThat(refused).as("a refusal once the values in hand ran out").isNotNull();
                assertThat(refused.getMessage()).contains("sequence 'orders'").contains("moved back")
                        .contains("set next_value to at least " + (reserved + 1));
                assertThat(servedAfterTheEdit).as("values in hand served after the edit")
                        .isEqualTo(strategy == Strategy.ASYNC ? 0 : (int) (reserved - 25));
                assertThat(orders.stats().discarded()).as("the refused range").isPositive();

                subject().setNextValue(store, "orders", reserved + 1);
                long after = orders.next();
                assertThat(after).as("values flow again once the row is set right").isGreaterThan(reserved);
                values.add(after);
                values.add(orders.next());
                Concurrently.assertUnique(values.build().toArray());
            }
        });
    }

    private static void awaitPrefetchedBlock(Sequence orders) {
        await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().remaining() >= 15);
    }

    @TestFactory
    default Stream<DynamicTest> aRowMovedForwardOnlyLeavesAGap() {
        return perStrategy(OWN_TRANSACTION_STRATEGIES, strategy -> {
            SequenceStore store = subject().newStore();
            try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(editedSettings(strategy))
                    .build()) {
                Sequence orders = registry.sequence("orders");
                orders.next();
                subject().setNextValue(store, "orders", 1_000);
                long value = 0;
                for (int i = 0; i < 30 && value < 1_000; i++) {
                    value = orders.next();
                }
                assertThat(value).isEqualTo(1_000);
                assertThat(orders.stats().discarded()).isZero();
            }
        });
    }

    @TestFactory
    default Stream<DynamicTest> aRowMovedBackBelowValuesOnlyOtherGeneratorsTookCannotBeDetected() {
        return perStrategy(OWN_TRANSACTION_STRATEGIES, strategy -> {
            SequenceStore store = subject().newStore();
            try (SequenceRegistry earlier = SequenceRegistry.builder(store).defaults(editedSettings(strategy))
                    .build()) {
                Sequence orders = earlier.sequence("orders");
                for (int i = 0; i < 20; i++) {
                    orders.next();
                }
            }
            subject().setNextValue(store, "orders", 11); // restored from a backup taken when 10 values were out
            try (SequenceRegistry later = SequenceRegistry.builder(subject().sameRows(store))
                    .defaults(editedSettings(strategy)).build()) {
                assertThat(later.sequence("orders").next()).as("issued by the earlier generator too").isEqualTo(11);
            }
        });
    }

    @Test
    default void aRowEditedToLongMaxValueIsExhaustedForEveryStrategyNeverWrapped() {
        SequenceStore store = subject().newStore();
        create(store, "ids", 1, 10, MAX);
        subject().setNextValue(store, "ids", Long.MAX_VALUE);
        for (Strategy strategy : subject().strategies()) {
            for (long maxValue : new long[] {MAX, SequenceSettings.INT_MAX_VALUE}) {
                try (SequenceRegistry registry = SequenceRegistry.builder(store)
                        .defaults(settings(strategy).maxValue(maxValue).build()).build()) {
                    Sequence ids = registry.sequence("ids");
                    assertThatThrownBy(() -> take(ids, 3)).as(strategy + " up to " + maxValue)
                            .isInstanceOf(SequenceExhaustedException.class);
                }
            }
        }
        assertThat(store.nextValue("ids")).hasValue(Long.MAX_VALUE);
    }
}
