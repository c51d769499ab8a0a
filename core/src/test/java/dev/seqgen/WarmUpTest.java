package dev.seqgen;

import dev.seqgen.testing.GatedStore;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link SequenceRegistry#warmUp}: the first blocks in hand before the first caller, within a bounded wait. */
class WarmUpTest {

    @Test
    void warmUpOpensTheConfiguredBlockSequencesAndEachHoldsItsFirstBlock() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        // A clock that stands still: every reservation takes no time, so the second block is sized by a wait of 0.
        try (SequenceRegistry registry = SequenceRegistry.builder(store).ticker(() -> 0L)
                .sequence("orders", SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).build())
                .sequence("invoices", SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build())
                .sequence("tickets", SequenceSettings.builder().strategy(Strategy.ASYNC).build())
                .build()) {
            registry.warmUp();

            assertThat(registry.sequences()).extracting(Sequence::name)
                    .as("the block strategies are opened; an async sequence holds no block and waits for its use")
                    .containsExactlyInAnyOrder("orders", "invoices");
            SequenceStats orders = registry.sequence("orders").stats();
            assertThat(orders.remaining()).as("an adaptive async-batch sequence's first block is the configured block,"
                    + " and so is its second, taken before the warm-up returns on a row that did not queue")
                    .isEqualTo(2000);
            assertThat(orders.reservations()).isEqualTo(2);
            assertThat(registry.sequence("invoices").stats().remaining()).isEqualTo(10);
            assertThat(registry.sequence("tickets").stats().reservations()).as("ASYNC holds no block").isZero();

            assertThat(registry.sequence("orders").next()).isEqualTo(1);
            assertThat(registry.sequence("invoices").next()).isEqualTo(1);
            assertThat(registry.sequence("orders").stats().waits()).as("the first caller found its value in hand")
                    .isZero();
        }
    }

    @Test
    void aSequenceOpenBeforeTheWarmUpKeepsTheFirstBlockItAskedFor() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).ticker(() -> 0L).build()) {
            Sequence orders = registry.sequence("orders");
            registry.warmUp();
            assertThat(orders.stats().remaining()).as("the first block it asked for, and the second").isEqualTo(2000);
            assertThat(orders.stats().reservations()).isEqualTo(2);
        }
    }

    /**
     * A configured sequence whose user declared other settings (an {@code int} property's maximum, an annotation's
     * strategy) is opened by the warm-up with the declared ones, so that the user's first value does not meet a
     * sequence already open with settings it disagrees with.
     */
    @Test
    void aDeclaredSequenceIsWarmedUpWithTheSettingsItsUserDeclared() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings configured = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10)
                .initialValue(1000).build();
        SequenceSettings declared = configured.toBuilder().maxValue(SequenceSettings.INT_MAX_VALUE).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).sequence("lego_set", configured).build()) {
            registry.declare("lego_set", declared);
            registry.warmUp();
            assertThat(registry.sequence("lego_set", declared).settings()).isEqualTo(declared);
            assertThat(registry.sequence("lego_set", declared).stats().remaining()).as("warmed up").isEqualTo(10);
        }
    }

    @Test
    void theWaitIsBoundedAndTheFirstReservationGoesOnInTheBackground() throws Exception {
        // The first reservation waits at the gate until the test opens it: a row with a long start-up queue.
        GatedStore store = new GatedStore(new InMemorySequenceStore(), 1);
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.warmUp(List.of("orders"), Duration.ofMillis(50)))
                    .isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("'orders'")
                    .hasMessageContaining("first block was not in hand within the warm-up's PT0.05S");
            store.awaitGatedCall();
            store.open();
            registry.warmUp(List.of("orders"), Duration.ofMinutes(1));
            Sequence orders = registry.sequence("orders");
            assertThat(orders.stats().reservations()).as("the first reservation that was under way, no other first"
                    + " one, then the second block").isEqualTo(2);
            assertThat(orders.next()).isEqualTo(1);
        }
    }
}
