package dev.seqgen.boot.autoconfigure.health;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.actuate.SeqgenHealthIndicator;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Auto-configuration for the {@code seqgen} health indicator (off: {@code management.health.seqgen.enabled=false}). */
@AutoConfiguration(after = SeqgenAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnEnabledHealthIndicator.class)
@ConditionalOnBean(SequenceRegistry.class)
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqgenProperties.class)
public final class SeqgenHealthContributorAutoConfiguration {

    // Nested: its condition's module is read only once the class-level condition has found it.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnEnabledHealthIndicator("seqgen")
    static class SeqgenHealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = { "seqgenHealthIndicator", "seqgenHealthContributor" })
        SeqgenHealthIndicator seqgenHealthIndicator(SequenceRegistry registry, SeqgenProperties properties) {
            try {
                return new SeqgenHealthIndicator(registry, properties.getSequences().keySet(),
                        properties.getHealth().getCapacityWarningThreshold());
            } catch (SequenceConfigurationException e) {
                // The same value and rule under the property's name; the cause would add nothing.
                throw new SequenceConfigurationException("seqgen.health." + e.setting(), e.value(), e.allowed());
            }
        }
    }
}
