package dev.seqgen.boot.autoconfigure.endpoint;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.actuate.SeqgenEndpoint;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenProperties;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Auto-configuration for the {@code seqgen} actuator endpoint, {@link SeqgenEndpoint}. Like every endpoint
 * but health, it must be exposed to be reachable: {@code management.endpoints.web.exposure.include=seqgen}.
 */
@AutoConfiguration(after = SeqgenAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(SequenceRegistry.class)
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqgenProperties.class)
public final class SeqgenEndpointAutoConfiguration {

    // Nested, so that its condition, which lives in spring-boot-actuator-autoconfigure, is read only once the
    // class-level condition has found that module.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(SeqgenEndpoint.class)
    static class SeqgenEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SeqgenEndpoint seqgenEndpoint(SequenceRegistry registry, SeqgenProperties properties) {
            return new SeqgenEndpoint(registry, properties.getSequences().keySet());
        }
    }
}
