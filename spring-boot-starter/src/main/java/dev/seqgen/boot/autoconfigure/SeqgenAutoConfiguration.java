package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.JdbcKind;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.StoreType;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.spi.SequenceStore;

import java.util.Locale;
import javax.sql.DataSource;
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
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Auto-configuration for seqgen: a {@link SequenceRegistry} configured from the {@code seqgen.*} properties
 * over a {@link SequenceStore}, handed to Hibernate for seqgen's identifier generator.
 *
 * <p>The store is the JDBC store over the application's {@link DataSource} when {@code seqgen.store} is
 * {@code auto} (the default) or {@code jdbc}. Any other {@link SequenceStore} bean takes its place: the
 * application's own, or the Cloud Spanner store of {@link SeqgenSpannerAutoConfiguration}, which orders
 * itself {@code before} this class; without one, the context fails saying which store is missing.
 *
 * <p>Every bean backs off when the application defines its own. Closing the context closes the registry,
 * which gives the unused values in hand back to the store where no one reserved after them.
 */
@AutoConfiguration(afterName = { "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration" })
@ConditionalOnClass(SequenceRegistry.class)
@ConditionalOnBooleanProperty(name = "seqgen.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SeqgenProperties.class)
public final class SeqgenAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @Conditional(StoreAvailableCondition.class)
    @SuppressWarnings("deprecation")
    SequenceRegistry sequenceRegistry(SeqgenProperties properties, ObjectProvider<SequenceStore> store,
            ObjectProvider<SequenceMetricsTrackerFactory> metrics,
            ObjectProvider<SequenceRegistryCustomizer> customizers) {
        SequenceStore sequenceStore = store.getIfAvailable();
        if (sequenceStore == null) {
            throw noStore(properties.getStore());
        }
        SequenceSettings defaults = SeqgenSettings.defaults(properties.getDefaults());
        SequenceRegistry.Builder builder = SequenceRegistry.builder(sequenceStore).defaults(defaults);
        properties.getSequences()
                .forEach((name, sequence) -> SeqgenSettings.addSequence(builder, name, sequence, defaults));
        metrics.ifAvailable(builder::metrics);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
    }

    /**
     * Once every singleton has started (the entity manager factory and its {@code ddl-auto} included): fails
     * the start-up naming the script to run when the JDBC store's table is missing, then creates the rows of
     * the sequences configured under {@code seqgen.sequences} (unless the deprecated
     * {@code seqgen.schema.create} is false), so that the health indicator and the endpoint show them.
     */
    @Bean
    @SuppressWarnings("deprecation")
    static SmartInitializingSingleton seqgenStartUpChecks(ObjectProvider<SequenceRegistry> registry,
            ObjectProvider<SeqgenProperties> properties, ObjectProvider<JdbcSchema> jdbcSchema) {
        return () -> registry.ifAvailable(available -> {
            if (available.store() instanceof JdbcSequenceStore jdbc) {
                jdbcSchema.ifAvailable(schema -> schema.requireTable(jdbc));
            }
            SeqgenProperties seqgen = properties.getObject();
            if (!Boolean.FALSE.equals(seqgen.getSchema().getCreate())) {
                createConfiguredSequences(available, seqgen.getSequences().keySet());
            }
        });
    }

    /** Creates the configured sequences' rows (and with them the JDBC table) now rather than on first use. */
    private static void createConfiguredSequences(SequenceRegistry registry, Iterable<String> names) {
        for (String name : names) {
            registry.createSequence(name, registry.settingsFor(name));
        }
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
        return new SequenceConfigurationException("seqgen.store", storeType.name().toLowerCase(Locale.ROOT),
                allowed);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataSource.class)
    @ConditionalOnSingleCandidate(DataSource.class)
    @Conditional(JdbcStoreCondition.class)
    @SuppressWarnings("deprecation")
    static class JdbcStoreConfiguration {

        @Bean
        @ConditionalOnMissingBean(SequenceStore.class)
        @Conditional(NativeSequenceKindCondition.class)
        NativeSequenceStore nativeSequenceStore(DataSource dataSource, SeqgenProperties properties,
                ObjectProvider<JdbcSchema> jdbcSchema) {
            JdbcSchema schema = jdbcSchema.getIfAvailable();
            boolean dedicatedConnection = properties.getJdbc().isDedicatedConnection();
            if (dedicatedConnection && schema != null) {
                schema.requireRoomForTheDedicatedConnection();
            }
            NativeSequenceStore.Builder builder = NativeSequenceStore.builder(dataSource)
                    .dedicatedConnection(dedicatedConnection);
            try {
                builder.prefix(properties.getJdbc().getSequencePrefix());
            } catch (SequenceConfigurationException e) {
                throw new SequenceConfigurationException("seqgen.jdbc.sequence-prefix", e.value(), e.allowed());
            }
            return builder.build();
        }

        @Bean
        @ConditionalOnMissingBean(SequenceStore.class)
        @Conditional(TableKindCondition.class)
        // Starts after the database initializers (SeqgenDependsOnDatabaseInitializationDetector), except with
        // JPA's deferred initialization, where it serves the EntityManagerFactory those initializers wait for.
        JdbcSequenceStore sequenceStore(DataSource dataSource, SeqgenProperties properties,
                ObjectProvider<JdbcSchema> jdbcSchema) {
            JdbcSchema schema = jdbcSchema.getIfAvailable();
            boolean dedicatedConnection = properties.getJdbc().isDedicatedConnection();
            if (dedicatedConnection && schema != null) {
                schema.requireRoomForTheDedicatedConnection();
            }
            Boolean create = properties.getSchema().getCreate();
            // Without Spring Boot's JDBC module there is no database initialization: the store creates the
            // table unless told not to.
            boolean storeCreatesTable = Boolean.TRUE.equals(create) || (schema != null ? schema.storeCreatesRenamedTable()
                    : create == null && properties.getJdbc().getInitializeSchema() != DatabaseInitializationMode.NEVER);
            JdbcSequenceStore.Builder builder = JdbcSequenceStore.builder(dataSource)
                    .createTable(storeCreatesTable)
                    .dedicatedConnection(dedicatedConnection);
            try {
                builder.table(properties.getTable());
            } catch (SequenceConfigurationException e) {
                throw SeqgenSettings.tableSetting(e);
            }
            JdbcSequenceStore store = builder.build();
            if (storeCreatesTable) {
                store.createTableIfMissing();
            }
            return store;
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer")
        // Orders the initializers before the beans that depend on them even where no other auto-configuration
        // imports it (as Spring Batch's does).
        @Import(DatabaseInitializationDependencyConfigurer.class)
        static class DatabaseInitializationConfiguration {

            /**
             * Creates the sequence table as {@code seqgen.jdbc.initialize-schema} says; none when the deprecated
             * {@code seqgen.schema.create} is set, which makes the store create it (true) or no one (false), nor
             * when {@code seqgen.table} renames the table of the shipped scripts: the store then creates it under
             * the same mode, with the same statement.
             */
            @Bean
            @ConditionalOnMissingBean(SeqgenDataSourceScriptDatabaseInitializer.class)
            SeqgenDataSourceScriptDatabaseInitializer seqgenDataSourceScriptDatabaseInitializer(DataSource dataSource,
                    SeqgenProperties properties) {
                DatabaseInitializationMode mode = properties.getSchema().getCreate() != null
                        || JdbcSchema.isRenamedTableWithDefaultScript(properties)
                        || properties.getJdbc().getKind() == JdbcKind.NATIVE_SEQUENCE ? DatabaseInitializationMode.NEVER
                                : properties.getJdbc().getInitializeSchema();
                return new SeqgenDataSourceScriptDatabaseInitializer(dataSource, mode,
                        properties.getJdbc().getSchema());
            }

            /** The start-up checks of the pool and of the sequence table in the DataSource. */
            @Bean
            JdbcSchema seqgenJdbcSchema(DataSource dataSource, SeqgenProperties properties,
                    ObjectProvider<DataSourcePoolMetadataProvider> poolMetadata) {
                return new JdbcSchema(dataSource, properties, poolMetadata.orderedStream().toList());
            }
        }
    }

    /**
     * A store is there to use, or one was asked for by {@code seqgen.store} (then its absence fails the
     * start-up, saying what is missing). Under {@code seqgen.store=auto} with no store at all, such as a test
     * context without a DataSource, seqgen backs off.
     */
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

    /** {@code seqgen.jdbc.kind} is {@code table} (or unset). */
    static final class TableKindCondition extends JdbcKindCondition {

        TableKindCondition() {
            super(JdbcKind.TABLE);
        }
    }

    /** {@code seqgen.jdbc.kind} is {@code native-sequence}. */
    static final class NativeSequenceKindCondition extends JdbcKindCondition {

        NativeSequenceKindCondition() {
            super(JdbcKind.NATIVE_SEQUENCE);
        }
    }

    /** Matches one value of {@code seqgen.jdbc.kind}, bound as Spring binds it (any relaxed spelling). */
    abstract static class JdbcKindCondition extends SpringBootCondition {

        private final JdbcKind kind;

        JdbcKindCondition(JdbcKind kind) {
            this.kind = kind;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            JdbcKind bound = Binder.get(context.getEnvironment()).bind("seqgen.jdbc.kind", JdbcKind.class)
                    .orElse(JdbcKind.TABLE);
            return new ConditionOutcome(bound == kind, "seqgen.jdbc.kind is " + bound);
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

        /**
         * Hands the registry to seqgen's Hibernate generator, and makes the generator fail at start-up if it
         * does not get it, rather than serve ids from a registry of its own with default settings.
         */
        @Bean
        @ConditionalOnMissingBean(name = "seqgenHibernatePropertiesCustomizer")
        HibernatePropertiesCustomizer seqgenHibernatePropertiesCustomizer(ObjectProvider<SequenceRegistry> registry) {
            return hibernateProperties -> {
                // Without a registry (seqgen backed off: no store) an entity that uses seqgen fails to map,
                // saying what to add, instead of getting a registry of seqgen's own with default settings.
                registry.ifAvailable(available -> hibernateProperties.put(SeqgenHibernate.REGISTRY, available));
                hibernateProperties.put(SeqgenHibernate.REGISTRY_REQUIRED, "true");
            };
        }
    }
}
