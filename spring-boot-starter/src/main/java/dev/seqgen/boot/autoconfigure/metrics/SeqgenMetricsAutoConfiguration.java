package dev.seqgen.boot.autoconfigure.metrics;

import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** Auto-configuration that publishes every sequence's meters ({@code seqgen.*}) to the {@link MeterRegistry}. */
@AutoConfiguration(
        afterName = { "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
                "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration" })
@ConditionalOnClass({ MeterRegistry.class, MicrometerMetricsTrackerFactory.class })
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
public final class SeqgenMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(SequenceMetricsTrackerFactory.class)
    MicrometerMetricsTrackerFactory seqgenMetricsTrackerFactory(MeterRegistry meterRegistry,
            ObjectProvider<ObservationRegistry> observationRegistry) {
        // With an ObservationRegistry, reservations, refills and waits are also observations (trace spans).
        ObservationRegistry observations = observationRegistry.getIfUnique();
        return observations == null || observations.isNoop() ? new MicrometerMetricsTrackerFactory(meterRegistry)
                : new MicrometerMetricsTrackerFactory(meterRegistry, observations);
    }
}
