package dev.seqgen.boot.readiness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.GatedStore;
import dev.seqgen.testing.InMemorySequenceStore;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.AvailabilityState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * An application whose first block is not in hand within {@code seqgen.warm-up.timeout} never reports itself ready:
 * the store never answers within it (its reservations wait at a gate opened only once the start-up has failed), and
 * the start-up fails saying which sequence, which limit and why.
 */
class WarmUpLimitTest {

    /** The availability states the application published. */
    static final List<AvailabilityState> STATES = new CopyOnWriteArrayList<>();

    /** A row that does not answer until the test says so. */
    static final GatedStore STORE = new GatedStore(new InMemorySequenceStore(), 1);

    @Test
    void anApplicationWithoutItsFirstBlockWithinTheWarmUpLimitFailsToStartAndNeverReportsItselfReady() {
        try {
            Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(Application.class).properties(
                    "spring.main.web-application-type=none", "spring.main.banner-mode=off",
                    "spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                    "seqgen.sequences.limit_orders.strategy=batch", "seqgen.defaults.acquire-timeout=10m",
                    "seqgen.warm-up.timeout=200ms").run().close());

            assertThat(failure).isNotNull();
            assertThat(messages(failure)).anySatisfy(message -> assertThat(message)
                    .contains("seqgen: the application is not ready")
                    .contains("seqgen.warm-up.timeout (PT0.2S)")
                    .contains("sequence 'limit_orders'"));
            assertThat(STATES).as("the readiness state never reached ACCEPTING_TRAFFIC")
                    .doesNotContain(org.springframework.boot.availability.ReadinessState.ACCEPTING_TRAFFIC);
        } finally {
            STORE.open();
        }
    }

    private static List<String> messages(Throwable failure) {
        List<String> messages = new java.util.ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(String.valueOf(t.getMessage()));
        }
        return messages;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        SequenceStore gatedStore() {
            return STORE;
        }

        @Bean
        ApplicationListener<AvailabilityChangeEvent<?>> availability() {
            return event -> STATES.add(event.getState());
        }

        /** The row answers once the start-up has failed, so that the context's close finds no reservation hanging. */
        @Bean
        ApplicationListener<ApplicationFailedEvent> answerAfterTheFailure() {
            return event -> STORE.open();
        }
    }
}
