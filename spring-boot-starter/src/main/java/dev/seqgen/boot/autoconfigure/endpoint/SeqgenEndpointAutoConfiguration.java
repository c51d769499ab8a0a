package dev.seqgen.boot.autoconfigure.endpoint;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.boot.actuate.SeqgenEndpoint;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenProperties;
import dev.seqgen.hibernate.SeqgenHibernate;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hibernate.SessionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Auto-configuration for the {@code seqgen} actuator endpoint, {@link SeqgenEndpoint} (exposed as any other). */
@AutoConfiguration(after = SeqgenAutoConfiguration.class)
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnBean(SequenceRegistry.class)
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqgenProperties.class)
public final class SeqgenEndpointAutoConfiguration {

    // Nested: its condition's module is read only once the class-level condition has found it.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnAvailableEndpoint(SeqgenEndpoint.class)
    static class SeqgenEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SeqgenEndpoint seqgenEndpoint(SequenceRegistry registry, SeqgenProperties properties,
                ObjectProvider<SeqgenEndpoint.MappedSeries> mappedSeries) {
            return new SeqgenEndpoint(registry, properties.getSequences().keySet(),
                    mappedSeries.getIfAvailable(() -> SeqgenEndpoint.MappedSeries.NONE));
        }
    }

    /** The entity mappings' series, read from every {@code EntityManagerFactory} at each request. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ SessionFactory.class, EntityManagerFactory.class })
    @ConditionalOnAvailableEndpoint(SeqgenEndpoint.class)
    static class MappedSeriesConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SeqgenEndpoint.MappedSeries seqgenMappedSeries(ObjectProvider<EntityManagerFactory> factories) {
            return new SeqgenEndpoint.MappedSeries() {

                @Override
                public Map<String, SequenceSettings> sequences() {
                    Map<String, SequenceSettings> sequences = new TreeMap<>();
                    factories.orderedStream().forEach(factory -> SeqgenHibernate.seriesSequences(
                            factory.unwrap(SessionFactory.class)).forEach(sequences::putIfAbsent));
                    return sequences;
                }

                @Override
                public List<SequenceRegistry> registries() {
                    return factories.orderedStream().flatMap(factory -> SeqgenHibernate.tenantRegistries(
                            factory.unwrap(SessionFactory.class)).stream()).toList();
                }
            };
        }
    }
}
