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
}
