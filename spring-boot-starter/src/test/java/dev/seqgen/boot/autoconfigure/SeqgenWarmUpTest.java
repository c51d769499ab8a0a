package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.GatedStore;
import dev.seqgen.testing.InMemorySequenceStore;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.DefaultApplicationArguments;

/**
 * {@link SeqgenWarmUp}: the first blocks are waited for within {@code seqgen.warm-up.timeout}, a start-up limit of
 * its own, not the callers' acquire timeout.
 */
class SeqgenWarmUpTest {

    @Test
    void theWarmUpWaitsForTheFirstBlockLongerThanTheAcquireTimeoutWithinItsOwnLimit() throws Exception {
        // Every reservation waits at the gate: a row with a long start-up queue.
        GatedStore store = new GatedStore(new InMemorySequenceStore(), 1);
        SequenceSettings shortWait = SequenceSettings.builder().strategy(Strategy.BATCH)
                .acquireTimeout(Duration.ofMillis(50)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(shortWait)
                .sequence("orders", shortWait).build()) {
            DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
            beans.registerSingleton("registry", registry);
            SeqgenWarmUp warmUp = new SeqgenWarmUp(beans.getBeanProvider(SequenceRegistry.class),
                    beans.getBeanProvider(SeqgenWarmUp.MappedSequences.class), Duration.ofMinutes(1));
            CompletableFuture<Void> started = CompletableFuture.runAsync(
                    () -> warmUp.run(new DefaultApplicationArguments()), Concurrently.OWN_THREAD);
            store.awaitGatedCall();

            // A caller that waits within the acquire timeout gives up meanwhile: the warm-up, which began before it,
            // has waited longer than the acquire timeout when the row answers.
            Sequence other = registry.sequence("invoices");
            assertThatThrownBy(other::next).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("acquire timeout of PT0.05S");
            assertThat(started).as("still waiting for the row").isNotDone();
            store.open();

            started.get(1, TimeUnit.MINUTES);
            assertThat(registry.sequence("orders").stats().remaining()).isEqualTo(1000);
        }
    }

    @Test
    void aLimitThatIsNotPositiveIsRefusedNamingTheProperty() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        assertThatThrownBy(() -> new SeqgenWarmUp(beans.getBeanProvider(SequenceRegistry.class),
                beans.getBeanProvider(SeqgenWarmUp.MappedSequences.class), Duration.ZERO))
                .isInstanceOf(SequenceConfigurationException.class)
                .hasMessageContaining("seqgen.warm-up.timeout")
                .hasMessageContaining("a positive duration");
    }
}
