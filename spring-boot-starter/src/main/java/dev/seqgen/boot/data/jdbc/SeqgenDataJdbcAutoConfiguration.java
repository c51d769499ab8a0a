package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;

import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
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
 * Auto-configuration of seqgen for Spring Data JDBC: gives each new aggregate its {@link dev.seqgen.SeqgenValue} id
 * and numbers from the {@link SequenceRegistry} of {@link SeqgenAutoConfiguration}, through a
 * {@link BeforeConvertCallback} (and at the {@code BeforeConvertEvent}, before the application's listeners, where the
 * values can be set in place); SYNC values in the caller's transaction on the {@link DataSource}'s connection, one
 * increment per sequence for each {@code saveAll}. Active when Spring Data JDBC's mapping context, a single
 * {@code DataSource} and seqgen's registry are beans; once every singleton has started, every known entity's
 * annotated properties are checked, failing the start-up naming the one at fault. See
 * {@code docs/spring-data-jdbc.md}.
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

    /** Fills aggregates that can be filled in place at their BeforeConvertEvent, before the application's listeners. */
    @Bean
    @ConditionalOnMissingBean
    SeqgenBeforeConvertListener seqgenBeforeConvertListener(ObjectProvider<SeqgenAggregateCallback> callback) {
        return new SeqgenBeforeConvertListener(callback);
    }

    /** Counts the SYNC values of each saveAll and insertAll, so that one increment per sequence takes them. */
    @Bean
    static BeanPostProcessor seqgenSaveAllCounting(ObjectProvider<SeqgenAggregateCallback> callback) {
        return new SaveAllCounting(callback);
    }

    /** Checks every persistent entity's seqgen properties once the repositories (and their entities) exist. */
    @Bean
    static SmartInitializingSingleton seqgenAggregateChecks(ObjectProvider<SeqgenAggregateCallback> callback) {
        return () -> callback.ifAvailable(SeqgenAggregateCallback::checkAll);
    }
}
