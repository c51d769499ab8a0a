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
 * Auto-configuration for seqgen: a {@link SequenceRegistry} configured from the {@code seqgen.*} properties
 * over a {@link SequenceStore}, handed to Hibernate for seqgen's identifier generator.
 *
 * <p>The store is the JDBC store over the application's {@link DataSource} when {@code seqgen.store} is
 * {@code auto} (the default) or {@code jdbc}. Any other {@link SequenceStore} bean takes its place: the
 * application's own, or the Cloud Spanner store of {@link SeqgenSpannerAutoConfiguration}, which orders
 * itself {@code before} this class; without one, the context fails saying which store is missing.
 *
 * <p>Every bean backs off when the application defines its own. Stopping the context closes the registry, which
 * gives the unused values in hand back to the store where no one reserved after them and keeps the others for the
 * fleet, and logs what it did per sequence ({@link SeqgenShutdown}).
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
        SequenceStore sequenceStore = store.getIfAvailable();
        if (sequenceStore == null) {
            throw noStore(properties.getStore());
        }
        SequenceSettings defaults = SeqgenSettings.defaults(properties.getDefaults());
        SequenceRegistry.Builder builder = SequenceRegistry.builder(sequenceStore).defaults(defaults);
        // A sequence configured with another kind than the store's is served by a JDBC store of that kind over
        // the same DataSource: ids on database sequences and gapless numbers on the table, in one registry.
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

    /**
     * Closes the registry when the context stops, before Spring Boot shuts its logging down, and logs what became
     * of each sequence's unused values (see {@link SeqgenShutdown}).
     */
    @Bean
    @ConditionalOnMissingBean
    static SeqgenShutdown seqgenShutdown(ObjectProvider<SequenceRegistry> registry) {
        return new SeqgenShutdown(registry);
    }

    /**
     * Once every singleton has started (the entity manager factory and its {@code ddl-auto} included): warns of
     * every {@code seqgen.*} property that binds to nothing (a typo, with the nearest known name), fails
     * the start-up naming the DDL to run when the JDBC store's table is missing, then creates the rows of the
     * sequences configured under {@code seqgen.sequences}, so that the health indicator and the endpoint show them.
     */
    @Bean
    static SmartInitializingSingleton seqgenStartUpChecks(ObjectProvider<SequenceRegistry> registry,
            ObjectProvider<SeqgenProperties> properties, ObjectProvider<JdbcSchema> jdbcSchema,
            ObjectProvider<JdbcStores> jdbcStores, Environment environment) {
        return () -> registry.ifAvailable(available -> {
            // A mistyped seqgen.* name binds to nothing and Spring Boot ignores it: say so, with the nearest name.
            for (String unknown : UnknownProperties.find(environment)) {
                LOG.log(System.Logger.Level.WARNING, "seqgen: the property " + unknown + " binds to nothing and is"
                        + " ignored");
            }
            // The table check applies to the table store seqgen built over the DataSource, not to a store of
            // the application's or of another database.
            available.store(CounterKind.TABLE)
                    .filter(table -> jdbcStores.getIfAvailable() != null && jdbcStores.getObject().built(table))
                    .flatMap(SequenceStore::sqlTable)
                    .ifPresent(table -> jdbcSchema.ifAvailable(schema -> schema.requireTable(table.name())));
            createConfiguredSequences(available, properties.getObject().getSequences().keySet());
        });
    }

    /**
     * Takes the first blocks of the configured and mapped sequences before the application reports itself ready
     * (see {@link SeqgenWarmUp}).
     */
    @Bean
    @ConditionalOnMissingBean
    static SeqgenWarmUp seqgenWarmUp(ObjectProvider<SequenceRegistry> registry,
            ObjectProvider<SeqgenWarmUp.MappedSequences> mapped, SeqgenProperties properties) {
        return new SeqgenWarmUp(registry, mapped, properties.getWarmUp().getTimeout())
                .series(properties.getSeries().getWarmUp());
    }

    /** The first property that asks for a kind: a sequence's, else the defaults'. */
    private static String kindProperty(SeqgenProperties properties, CounterKind kind) {
        return properties.getSequences().entrySet().stream()
                .filter(entry -> entry.getValue().getKind() == kind)
                .map(entry -> "seqgen.sequences" + SeqgenSettings.key(entry.getKey()) + ".kind")
                .findFirst().orElse("seqgen.defaults.kind");
    }

    /**
     * Creates the configured sequences' rows (and with them the JDBC table) now rather than on first use, each with
     * the settings that govern it: a sequence a mapped entity uses was declared by seqgen's Hibernate generator
     * with its annotation's settings merged in (an {@code initialValue} of the annotation's, say, where the property
     * tunes only another setting), and a row the generator already created is not created again.
     */
    private static void createConfiguredSequences(SequenceRegistry registry, Iterable<String> names) {
        for (String name : names) {
            registry.createSequence(name);
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
    static class JdbcStoreConfiguration {

        /** Builds the JDBC stores: the registry's own (below) and one of another kind when a sequence asks. */
        @Bean
        JdbcStores seqgenJdbcStores(DataSource dataSource, SeqgenProperties properties,
                ObjectProvider<JdbcSchema> jdbcSchema) {
            return new JdbcStores(dataSource, properties, jdbcSchema.getIfAvailable());
        }

        @Bean
        @ConditionalOnMissingBean(SequenceStore.class)
        @Conditional(NativeSequenceKindCondition.class)
        NativeSequenceStore nativeSequenceStore(JdbcStores stores) {
            return stores.buildNativeSequence();
        }

        @Bean
        @ConditionalOnMissingBean(SequenceStore.class)
        @Conditional(TableKindCondition.class)
        // Starts after the database initializers (SeqgenDependsOnDatabaseInitializationDetector), except with
        // JPA's deferred initialization, where it serves the EntityManagerFactory those initializers wait for.
        JdbcSequenceStore sequenceStore(JdbcStores stores) {
            return stores.buildTable();
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer")
        // Orders the initializers before the beans that depend on them even where no other auto-configuration
        // imports it (as Spring Batch's does).
        @Import(DatabaseInitializationDependencyConfigurer.class)
        static class DatabaseInitializationConfiguration {

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

    /** The registry's own JDBC store counts in the table: {@code seqgen.defaults.kind} is {@code table} or unset. */
    static final class TableKindCondition extends JdbcKindCondition {

        TableKindCondition() {
            super(CounterKind.TABLE);
        }
    }

    /** The registry's own JDBC store is the native-sequence store. */
    static final class NativeSequenceKindCondition extends JdbcKindCondition {

        NativeSequenceKindCondition() {
            super(CounterKind.NATIVE_SEQUENCE);
        }
    }

    /**
     * Matches the kind of the registry's own JDBC store: {@code seqgen.defaults.kind} (table when unset), bound as
     * Spring binds it (any relaxed spelling); as {@link JdbcStores#primaryKind}.
     */
    abstract static class JdbcKindCondition extends SpringBootCondition {

        private final CounterKind kind;

        JdbcKindCondition(CounterKind kind) {
            this.kind = kind;
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Binder binder = Binder.get(context.getEnvironment());
            CounterKind bound = binder.bind("seqgen.defaults.kind", CounterKind.class).orElse(CounterKind.TABLE);
            return new ConditionOutcome(bound == kind, "seqgen.defaults.kind is " + bound.externalName());
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
        HibernatePropertiesCustomizer seqgenHibernatePropertiesCustomizer(ObjectProvider<SequenceRegistry> registry,
                SeqgenProperties properties, ObjectProvider<DataSource> dataSource) {
            return hibernateProperties -> {
                // Without a registry (seqgen backed off: no store) an entity that uses seqgen fails to map,
                // saying what to add, instead of getting a registry of seqgen's own with default settings.
                registry.ifAvailable(available -> hibernateProperties.put(SeqgenHibernate.REGISTRY, available));
                hibernateProperties.put(SeqgenHibernate.REGISTRY_REQUIRED, "true");
                // Hibernate's schema tools create seqgen's tables as seqgen.schema.initialize says, as the store does.
                DataSource unique = dataSource.getIfUnique();
                boolean creates = unique != null ? JdbcStores.createsTables(properties, unique)
                        : properties.getSchema().initializes(() -> false);
                hibernateProperties.putIfAbsent(SeqgenHibernate.SCHEMA_INITIALIZE, creates ? "always" : "never");
            };
        }

        /**
         * The sequences and series of the entity mappings, opened for the warm-up through Hibernate
         * ({@link SeqgenWarmUp}).
         */
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
                    boolean numbered = false;
                    for (EntityManagerFactory factory : factories.orderedStream().toList()) {
                        numbered |= SeqgenHibernate.warmUpSeries(factory.unwrap(SessionFactory.class), name, keys,
                                timeout);
                    }
                    return numbered;
                }
            };
        }
    }
}
