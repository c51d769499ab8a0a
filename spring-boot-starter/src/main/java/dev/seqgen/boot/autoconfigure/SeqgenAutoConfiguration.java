package dev.seqgen.boot.autoconfigure;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.StoreType;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.spi.SequenceStore;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import jakarta.persistence.EntityManagerFactory;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.jdbc.metadata.DataSourcePoolMetadataProvider;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration for seqgen: a {@link SequenceRegistry} from the {@code seqgen.*} properties over the JDBC store
 * of the {@link DataSource}, else a {@link SequenceStore} bean, handed to Hibernate. Every bean backs off when the
 * application defines its own.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration" })
@ConditionalOnClass(SequenceRegistry.class)
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqgenProperties.class)
public final class SeqgenAutoConfiguration {

    private static final System.Logger LOG = System.getLogger(SeqgenAutoConfiguration.class.getName());

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @Conditional(StoreAvailableCondition.class)
    @SuppressWarnings("deprecation")
    SequenceRegistry sequenceRegistry(SeqgenProperties properties, ObjectProvider<SequenceStore> store,
            ObjectProvider<JdbcStores> jdbcStores, ObjectProvider<SequenceMetricsTrackerFactory> metrics,
            ObjectProvider<SequenceRegistryCustomizer> customizers) {
        SequenceStore sequenceStore = store.getIfAvailable(() -> {
            throw noStore(properties.getStore());
        });
        SequenceSettings defaults = SeqgenSettings.defaults(properties.getDefaults());
        SequenceRegistry.Builder builder = SequenceRegistry.builder(sequenceStore).defaults(defaults);
        // A sequence of another kind than the store's gets a JDBC store of that kind over the same DataSource.
        for (CounterKind kind : JdbcStores.configuredKinds(properties)) {
            if (kind != sequenceStore.kind()) {
                JdbcStores stores = jdbcStores.getIfAvailable();
                if (stores == null) {
                    throw new SequenceConfigurationException(kindProperty(properties, kind), kind.externalName(),
                            "the kind of the " + sequenceStore.name() + " store, " + sequenceStore.kind()
                                    .externalName() + " (a store of another kind is built by seqgen's JDBC"
                                    + " support only, over the application's DataSource)");
                }
                builder.store(stores.additional(kind));
            }
        }
        properties.getSequences()
                .forEach((name, sequence) -> SeqgenSettings.addSequence(builder, name, sequence, defaults));
        Duration idleTimeout = properties.getSeries().getIdleTimeout();
        if (idleTimeout.isNegative()) {
            throw new SequenceConfigurationException("seqgen." + SequenceRegistry.SERIES_IDLE_TIMEOUT_SETTING,
                    idleTimeout, "a duration of 0 (series never released) or more");
        }
        builder.seriesIdleTimeout(idleTimeout);
        metrics.ifAvailable(builder::metrics);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    @Bean
    @ConditionalOnMissingBean
    static SeqgenShutdown seqgenShutdown(ObjectProvider<SequenceRegistry> registry) {
        return new SeqgenShutdown(registry);
    }

    /** After every singleton (ddl-auto included): warns of unbound properties, checks the table, creates the rows. */
    @Bean
    static SmartInitializingSingleton seqgenStartUpChecks(ObjectProvider<SequenceRegistry> registry,
            ObjectProvider<SeqgenProperties> properties, ObjectProvider<JdbcSchema> jdbcSchema,
            ObjectProvider<JdbcStores> jdbcStores, Environment environment) {
        return () -> registry.ifAvailable(available -> {
            UnknownProperties.find(environment).forEach(unknown -> LOG.log(System.Logger.Level.WARNING,
                    "seqgen: the property " + unknown + " binds to nothing and is ignored"));
            // Only the table store seqgen built over the DataSource is checked.
            available.store(CounterKind.TABLE)
                    .filter(table -> jdbcStores.getIfAvailable() != null && jdbcStores.getObject().built(table))
                    .flatMap(SequenceStore::sqlTable)
                    .ifPresent(table -> jdbcSchema.ifAvailable(schema -> schema.requireTable(table.name())));
            // A mapped sequence was declared by the Hibernate generator first, its annotation's settings merged in.
            properties.getObject().getSequences().keySet().forEach(available::createSequence);
        });
    }

    @Bean
    @ConditionalOnMissingBean
    static SeqgenWarmUp seqgenWarmUp(ObjectProvider<SequenceRegistry> registry,
            ObjectProvider<SeqgenWarmUp.MappedSequences> mapped, SeqgenProperties properties) {
        return new SeqgenWarmUp(registry, mapped, properties.getWarmUp().getTimeout())
                .series(properties.getSeries().getWarmUp());
    }

    private static String kindProperty(SeqgenProperties properties, CounterKind kind) {
        return properties.getSequences().entrySet().stream()
                .filter(entry -> entry.getValue().getKind() == kind)
                .map(entry -> "seqgen.sequences" + SeqgenSettings.key(entry.getKey()) + ".kind")
                .findFirst().orElse("seqgen.defaults.kind");
    }

    private static SequenceConfigurationException noStore(StoreType storeType) {
        String allowed = switch (storeType) {
            case AUTO -> "auto with a single (or a @Primary) DataSource bean, such as one from spring.datasource.url,"
                    + " or with a Spanner or DatabaseClient bean and the seqgen-spanner module on the class path,"
                    + " or with a SequenceStore bean";
            case JDBC -> "jdbc with a single (or a @Primary) DataSource bean, such as one from spring.datasource.url";
            case SPANNER -> "spanner with the seqgen-spanner module on the class path, or with a SequenceStore bean"
                    + " of the application's";
        };
        return new SequenceConfigurationException("seqgen.store", storeType.name().toLowerCase(Locale.ROOT), allowed);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataSource.class)
    @ConditionalOnSingleCandidate(DataSource.class)
    @Conditional(JdbcStoreCondition.class)
    static class JdbcStoreConfiguration {

        @Bean
        JdbcStores seqgenJdbcStores(DataSource dataSource, SeqgenProperties properties,
                ObjectProvider<JdbcSchema> jdbcSchema) {
            return new JdbcStores(dataSource, properties, jdbcSchema.getIfAvailable());
        }

        /** Registered before {@link #sequenceStore}, which then backs off. */
        @Bean
        @ConditionalOnMissingBean(SequenceStore.class)
        @Conditional(NativeSequenceKindCondition.class)
        NativeSequenceStore nativeSequenceStore(JdbcStores stores) {
            return stores.buildNativeSequence();
        }

        @Bean
        @ConditionalOnMissingBean(SequenceStore.class)
        // After the database initializers, except under JPA's deferred initialization (see the detector).
        JdbcSequenceStore sequenceStore(JdbcStores stores) {
            return stores.buildTable();
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer")
        // Orders the initializers before their dependants even where no other auto-configuration imports it.
        @Import(DatabaseInitializationDependencyConfigurer.class)
        static class DatabaseInitializationConfiguration {

            @Bean
            JdbcSchema seqgenJdbcSchema(DataSource dataSource, SeqgenProperties properties,
                    ObjectProvider<DataSourcePoolMetadataProvider> poolMetadata) {
                return new JdbcSchema(dataSource, properties, poolMetadata.orderedStream().toList());
            }
        }
    }

    /** A store bean exists, or {@code seqgen.store} asks for one; under auto without a store seqgen backs off. */
    static final class StoreAvailableCondition extends AnyNestedCondition {

        StoreAvailableCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnBean(SequenceStore.class)
        static class StoreBean {
        }

        @ConditionalOnProperty(name = "seqgen.store", havingValue = "jdbc")
        static class Jdbc {
        }

        @ConditionalOnProperty(name = "seqgen.store", havingValue = "spanner")
        static class Spanner {
        }
    }

    /** {@code seqgen.defaults.kind} (table when unset, any relaxed spelling) is native-sequence. */
    static final class NativeSequenceKindCondition extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Binder binder = Binder.get(context.getEnvironment());
            CounterKind bound = binder.bind("seqgen.defaults.kind", CounterKind.class).orElse(CounterKind.TABLE);
            return new ConditionOutcome(bound == CounterKind.NATIVE_SEQUENCE,
                    "seqgen.defaults.kind is " + bound.externalName());
        }
    }

    /** {@code seqgen.store} is {@code auto} (or unset) or {@code jdbc}. */
    static final class JdbcStoreCondition extends AnyNestedCondition {

        JdbcStoreCondition() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnProperty(name = "seqgen.store", havingValue = "auto", matchIfMissing = true)
        static class Auto {
        }

        @ConditionalOnProperty(name = "seqgen.store", havingValue = "jdbc")
        static class Jdbc {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HibernatePropertiesCustomizer.class)
    static class HibernateConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "seqgenHibernatePropertiesCustomizer")
        HibernatePropertiesCustomizer seqgenHibernatePropertiesCustomizer(ObjectProvider<SequenceRegistry> registry,
                SeqgenProperties properties, ObjectProvider<DataSource> dataSource) {
            return hibernateProperties -> {
                registry.ifAvailable(available -> hibernateProperties.put(SeqgenHibernate.REGISTRY, available));
                hibernateProperties.put(SeqgenHibernate.REGISTRY_REQUIRED, "true");
                // Hibernate's schema tools follow seqgen.schema.initialize, as the store does.
                DataSource unique = dataSource.getIfUnique();
                boolean creates = unique != null ? JdbcStores.createsTables(properties, unique)
                        : properties.getSchema().initializes(() -> false);
                hibernateProperties.putIfAbsent(SeqgenHibernate.SCHEMA_INITIALIZE, creates ? "always" : "never");
            };
        }

        @Bean
        SeqgenWarmUp.MappedSequences seqgenMappedSequences(ObjectProvider<EntityManagerFactory> factories) {
            return new SeqgenWarmUp.MappedSequences() {

                @Override
                public void warmUp(Duration timeout) {
                    factories.orderedStream()
                            .forEach(factory -> SeqgenHibernate.warmUp(factory.unwrap(SessionFactory.class), timeout));
                }

                @Override
                public boolean warmUpSeries(String name, List<String> keys, Duration timeout) {
                    return factories.orderedStream().map(factory -> SeqgenHibernate.warmUpSeries(
                            factory.unwrap(SessionFactory.class), name, keys, timeout)).toList().contains(true);
                }
            };
        }
    }
}
