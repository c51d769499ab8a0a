package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;

import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.data.relational.core.dialect.Dialect;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Auto-configuration giving new Spring Data JDBC aggregates their {@link dev.seqgen.SeqgenValue} ids and numbers;
 * checks every known entity once the singletons have started. See {@code docs/spring-data-jdbc.md}.
 */
@AutoConfiguration(after = SeqgenAutoConfiguration.class,
        afterName = "org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration")
@ConditionalOnClass({ BeforeConvertCallback.class, SequenceRegistry.class })
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
@ConditionalOnBean({ SequenceRegistry.class, RelationalMappingContext.class, Dialect.class })
@ConditionalOnSingleCandidate(DataSource.class)
public final class SeqgenDataJdbcAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    SeqgenAggregateCallback seqgenAggregateCallback(SequenceRegistry registry, RelationalMappingContext mappingContext,
            Dialect dialect, DataSource dataSource) {
        return new SeqgenAggregateCallback(mappingContext,
                new AggregateSequences(registry, mappingContext, dialect, dataSource), new TransactionValues(dataSource));
    }

    @Bean
    @ConditionalOnMissingBean
    SeqgenBeforeConvertListener seqgenBeforeConvertListener(ObjectProvider<SeqgenAggregateCallback> callback) {
        return new SeqgenBeforeConvertListener(callback);
    }

    @Bean
    static BeanPostProcessor seqgenSaveAllCounting(ObjectProvider<SeqgenAggregateCallback> callback) {
        return new SaveAllCounting(callback);
    }
}
