package dev.seqgen.boot.autoconfigure;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.spi.SequenceStore;

import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.util.StringUtils;

/**
 * Auto-configuration of the Cloud Spanner store for {@link SeqgenAutoConfiguration}'s registry, over the
 * {@link DatabaseClient} bean, else the {@code seqgen.spanner.*} database on the {@link Spanner} bean or its own.
 */
@AutoConfiguration(before = SeqgenAutoConfiguration.class,
        afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
                "com.google.cloud.spring.autoconfigure.spanner.GcpSpannerAutoConfiguration" })
@ConditionalOnClass({ Spanner.class, SpannerSequenceStore.class })
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
@Conditional(SeqgenSpannerAutoConfiguration.SpannerStoreCondition.class)
@ConditionalOnMissingBean(SequenceStore.class)
@EnableConfigurationProperties(SeqgenProperties.class)
public final class SeqgenSpannerAutoConfiguration {

    private static final String PREFIX = "seqgen.spanner.";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean({ Spanner.class, DatabaseClient.class })
    Spanner seqgenSpanner(SeqgenProperties properties) {
        SeqgenProperties.Spanner spanner = properties.getSpanner();
        SpannerOptions.Builder options = SpannerOptions.newBuilder();
        if (StringUtils.hasText(spanner.getProjectId())) {
            options.setProjectId(spanner.getProjectId());
        }
        if (StringUtils.hasText(spanner.getEmulatorHost())) {
            options.setEmulatorHost(spanner.getEmulatorHost());
        }
        return options.build().getService();
    }

    @Bean
    @ConditionalOnMissingBean(SequenceStore.class)
    SpannerSequenceStore spannerSequenceStore(SeqgenProperties properties,
            ObjectProvider<DatabaseClient> databaseClient, ObjectProvider<Spanner> spanner) {
        SeqgenProperties.Spanner spannerProperties = properties.getSpanner();
        DatabaseClient client = databaseClient.getIfAvailable();
        SpannerSequenceStore.Builder builder;
        if (client != null) {
            // Which database the client reaches is not known here: the table must exist.
            builder = SpannerSequenceStore.builder(client);
        } else {
            Spanner service = spanner.getObject();
            String project = StringUtils.hasText(spannerProperties.getProjectId()) ? spannerProperties.getProjectId()
                    : service.getOptions().getProjectId();
            String instance = required(spannerProperties.getInstanceId(), "instance-id", "a Spanner instance id");
            String database = required(spannerProperties.getDatabaseId(), "database-id", "a Spanner database id");
            client = service.getDatabaseClient(DatabaseId.of(project, instance, database));
            builder = SpannerSequenceStore.builder(client)
                    .databaseAdminClient(service.getDatabaseAdminClient(), instance, database)
                    .createTable(properties.getSchema().initializes(() -> false)); // Spanner is not embedded
        }
        try {
            builder.table(properties.getTable());
        } catch (SequenceConfigurationException e) {
            throw SeqgenSettings.invalid("seqgen.table", e.value(), e.allowed(), e);
        }
        switch (spannerProperties.getDialect()) {
            case AUTO -> builder.detectDialect();
            case GOOGLE_STANDARD_SQL -> builder.dialect(Dialect.GOOGLE_STANDARD_SQL);
            case POSTGRESQL -> builder.dialect(Dialect.POSTGRESQL);
        }
        try {
            builder.operationTimeout(spannerProperties.getOperationTimeout());
        } catch (SequenceConfigurationException e) {
            throw SeqgenSettings.invalid(PREFIX + "operation-timeout", e.value(), e.allowed(), e);
        }
        return builder.build();
    }

    private static String required(@Nullable String value, String property, String what) {
        if (!StringUtils.hasText(value)) {
            throw new SequenceConfigurationException(PREFIX + property, value == null ? "" : value,
                    what + ", required with the Cloud Spanner store when there is no DatabaseClient bean");
        }
        return value;
    }

    /** {@code seqgen.store=spanner}, or auto with a Spanner or DatabaseClient bean and no single DataSource. */
    static final class SpannerStoreCondition extends AnyNestedCondition {

        SpannerStoreCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = "seqgen.store", havingValue = "spanner")
        static class Chosen {
        }

        @ConditionalOnProperty(name = "seqgen.store", havingValue = "auto", matchIfMissing = true)
        @ConditionalOnBean(Spanner.class)
        @Conditional(NoSingleDataSource.class)
        static class AutoWithSpanner {
        }

        @ConditionalOnProperty(name = "seqgen.store", havingValue = "auto", matchIfMissing = true)
        @ConditionalOnBean(DatabaseClient.class)
        @Conditional(NoSingleDataSource.class)
        static class AutoWithDatabaseClient {
        }
    }

    /** Under auto, a single DataSource wins. */
    static final class NoSingleDataSource extends NoneNestedConditions {

        NoSingleDataSource() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnSingleCandidate(DataSource.class)
        static class SingleDataSource {
        }
    }
}
