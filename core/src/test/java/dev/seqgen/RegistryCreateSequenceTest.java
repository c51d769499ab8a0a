package dev.seqgen;

import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link SequenceRegistry#createSequence}: the row at start-up, with the retries of a first use. */
class RegistryCreateSequenceTest {

    private final InMemorySequenceStore store = new InMemorySequenceStore();

    @Test
    void createsTheRowWithoutOpeningTheSequenceRetryingTransientErrors() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            store.failNextTransiently(2);
            registry.createSequence("invoices", SequenceSettings.builder().initialValue(1000).build());
            assertThat(store.nextValue("invoices")).hasValue(1000);
            assertThat(registry.sequences()).as("not opened").isEmpty();

            registry.createSequence("invoices", SequenceSettings.builder().initialValue(5).build());
            assertThat(store.nextValue("invoices")).as("an existing row is left as it is").hasValue(1000);
        }
    }

    @Test
    void aBadNameOrAStoreThatStaysDownFailsNamingTheSequence() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.createSequence("no spaces", SequenceSettings.defaults()))
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'no spaces'");
            store.down(true);
            assertThatThrownBy(() -> registry.createSequence("orders",
                    SequenceSettings.builder().acquireTimeout(Duration.ofMillis(200)).build()))
                    .isInstanceOf(SequenceUnavailableException.class).hasMessageContaining("sequence 'orders'");
        }
    }

    @Test
    void eachSequenceIsServedByTheStoreOfItsKind() {
        InMemorySequenceStore databaseSequences = new InMemorySequenceStore().kind(CounterKind.NATIVE_SEQUENCE);
        SequenceSettings onSequences = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10)
                .kind(CounterKind.NATIVE_SEQUENCE).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).store(databaseSequences)
                .sequence("orders", onSequences).build()) {
            assertThat(registry.sequence("orders").next()).isEqualTo(1);
            assertThat(registry.sequence("invoices", SequenceSettings.builder().strategy(Strategy.SYNC).build()))
                    .as("kind unset: the primary store").isNotNull();
            registry.createSequence("invoices", SequenceSettings.builder().strategy(Strategy.SYNC).build());
            assertThat(databaseSequences.nextValue("orders")).as("served by the store of its kind").hasValue(11);
            assertThat(store.nextValue("orders")).isEmpty();
            assertThat(store.nextValue("invoices")).hasValue(1);
            assertThat(registry.storeOf("orders")).isSameAs(databaseSequences);
            assertThat(registry.store(CounterKind.TABLE)).containsSame(store);
            assertThat(registry.stores()).containsExactly(store, databaseSequences);
        }
        assertThatThrownBy(() -> SequenceRegistry.builder(store).store(new InMemorySequenceStore()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already has a store of the kind table");
    }

    @Test
    void aKindTheRegistryHasNoStoreForFailsNamingTheSequenceAndTheKind() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.sequence("orders", SequenceSettings.builder()
                    .kind(CounterKind.NATIVE_SEQUENCE).build()))
                    .isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("'sequences.orders.kind'").hasMessageContaining("native-sequence")
                    .hasMessageContaining("a kind this registry has a store for: table");
        }
        assertThatThrownBy(() -> SequenceSettings.builder().strategy(Strategy.SYNC).kind(CounterKind.NATIVE_SEQUENCE)
                .build()).isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'kind'")
                .hasMessageContaining("table for a sync sequence");
    }

    /** One rule for every user of a name, checked before the sequence is asked for as when it is. */
    @Test
    void usersOfOneNameMustAgreeOnItsSettingsBeforeAndWhenTheSequenceIsAskedFor() {
        SequenceSettings tens = SequenceSettings.builder().blockSize(10).build();
        SequenceSettings twenties = SequenceSettings.builder().blockSize(20).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(new InMemorySequenceStore()).build()) {
            registry.requireSettings("orders", twenties); // nothing created yet: anything goes
            registry.sequence("orders", tens);
            registry.requireSettings("orders", tens);
            for (Runnable disagreeing : new Runnable[] {() -> registry.requireSettings("orders", twenties),
                    () -> registry.sequence("orders", twenties),
                    () -> SequenceRegistry.requireSameSettings("orders", tens, twenties)}) {
                assertThatThrownBy(disagreeing::run).isInstanceOf(SequenceConfigurationException.class)
                        .hasMessageContaining("'sequences.orders'").hasMessageContaining("block-size=20")
                        .hasMessageContaining("first created with in this registry: " + tens);
            }
        }
    }
}
