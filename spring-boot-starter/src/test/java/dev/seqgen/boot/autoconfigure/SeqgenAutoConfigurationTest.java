package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.SettingTest;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

class SeqgenAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    @Test
    void defaultsToAnAsyncBatchRegistryOverTheJdbcStoreOfTheDataSource() {
        contextRunner.run(context -> {
            assertThat(context).hasSingleBean(SequenceRegistry.class).hasSingleBean(JdbcSequenceStore.class);
            SequenceRegistry registry = context.getBean(SequenceRegistry.class);
            JdbcSequenceStore store = context.getBean(JdbcSequenceStore.class);
            assertThat(registry.store()).isSameAs(store);
            assertThat(store.table()).isEqualTo("seqgen_sequences");
            assertThat(store.dialect()).isEqualTo(JdbcDialect.H2);
            assertThat(registry.defaults()).isEqualTo(SequenceSettings.defaults());
            assertThat(registry.settingsFor("orders")).isEqualTo(SequenceSettings.defaults());
            assertThat(registry.defaults().strategy()).isEqualTo(Strategy.ASYNC_BATCH);
            assertThat(registry.defaults().lowWatermark()).isEqualTo(250);
            assertThat(registry.sequence("orders").next()).isEqualTo(1);
        });
    }

    /** Every setting of core's one description, set as text under both prefixes, reaches the registry. */
    @Test
    void everySettingIsAPropertyForTheDefaultsAndForOneSequence() {
        for (Setting setting : Setting.values()) {
            Object expected = setting.valueIn(SettingTest.nonDefault(setting).build());
            String[] forBoth = SettingTest.example(setting).entrySet().stream()
                    .flatMap(e -> java.util.stream.Stream.of("seqgen.defaults." + e.getKey().key() + "=" + e.getValue(),
                            "seqgen.sequences.orders." + e.getKey().key() + "=" + e.getValue()))
                    .toArray(String[]::new);
            String[] forOrders = SettingTest.example(setting).entrySet().stream()
                    .map(e -> "seqgen.sequences.orders." + e.getKey().key() + "=" + e.getValue())
                    .toArray(String[]::new);
            contextRunner.withPropertyValues(forBoth).run(context -> {
                        assertThat(context).hasNotFailed();
                        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                        assertThat(setting.valueIn(registry.defaults())).as(setting.key()).isEqualTo(expected);
                        assertThat(setting.valueIn(registry.settingsFor("orders"))).as(setting.key())
                                .isEqualTo(expected);
                    });
            contextRunner.withPropertyValues(forOrders).run(context -> {
                SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                assertThat(setting.valueIn(registry.settingsFor("orders"))).as(setting.key()).isEqualTo(expected);
                assertThat(registry.defaults()).isEqualTo(SequenceSettings.defaults());
            });
        }
    }

    @Test
    void everyDefaultsPropertyReachesTheDefaultSettings() {
        contextRunner.withPropertyValues("seqgen.defaults.strategy=batch", "seqgen.defaults.block-size=500",
                "seqgen.defaults.low-watermark=50", "seqgen.defaults.acquire-timeout=2s",
                "seqgen.defaults.initial-value=1000", "seqgen.defaults.max-value=2147483647",
                "seqgen.defaults.adaptive.enabled=true", "seqgen.defaults.adaptive.max-block-size=8000",
                "seqgen.defaults.adaptive.target-refill-interval=250ms").run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.defaults()).isEqualTo(SequenceSettings.builder()
                            .strategy(Strategy.BATCH)
                            .blockSize(500)
                            .lowWatermark(50)
                            .acquireTimeout(Duration.ofSeconds(2))
                            .initialValue(1000)
                            .maxValue(SequenceSettings.INT_MAX_VALUE)
                            .adaptive(true)
                            .adaptiveMaxBlockSize(8000)
                            .adaptiveTargetRefillInterval(Duration.ofMillis(250))
                            .build());
                    assertThat(registry.sequence("orders").next()).isEqualTo(1000);
                });
    }

    @Test
    void strategiesAreSpelledAsInTheConfigurationOrAsTheEnum() {
        contextRunner.withPropertyValues("seqgen.defaults.strategy=ASYNC_BATCH",
                "seqgen.sequences.invoices.strategy=sync", "seqgen.sequences.orders.strategy=async-batch")
                .run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.defaults().strategy()).isEqualTo(Strategy.ASYNC_BATCH);
                    assertThat(registry.settingsFor("invoices").strategy()).isEqualTo(Strategy.SYNC);
                    assertThat(registry.settingsFor("orders").strategy()).isEqualTo(Strategy.ASYNC_BATCH);
                });
    }

    @Test
    void aSequenceTakesWhatItSetsAndTheDefaultsForTheRest() {
        contextRunner.withPropertyValues("seqgen.defaults.block-size=500", "seqgen.defaults.acquire-timeout=3s",
                "seqgen.sequences.invoices.strategy=sync", "seqgen.sequences.orders.block-size=2000",
                "seqgen.sequences.orders.low-watermark=100", "seqgen.sequences.orders.acquire-timeout=1s",
                "seqgen.sequences.orders.initial-value=10", "seqgen.sequences.orders.max-value=99999",
                "seqgen.sequences.orders.adaptive.enabled=true",
                "seqgen.sequences.orders.adaptive.max-block-size=4000",
                "seqgen.sequences.orders.adaptive.target-refill-interval=2s").run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    SequenceSettings defaults = registry.defaults();
                    assertThat(registry.settingsFor("invoices"))
                            .isEqualTo(defaults.toBuilder().strategy(Strategy.SYNC).build());
                    assertThat(registry.settingsFor("invoices").blockSize()).isEqualTo(500);
                    assertThat(registry.settingsFor("invoices").acquireTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(registry.settingsFor("orders")).isEqualTo(SequenceSettings.builder()
                            .blockSize(2000)
                            .lowWatermark(100)
                            .acquireTimeout(Duration.ofSeconds(1))
                            .initialValue(10)
                            .maxValue(99999)
                            .adaptive(true)
                            .adaptiveMaxBlockSize(4000)
                            .adaptiveTargetRefillInterval(Duration.ofSeconds(2))
                            .build());
                    assertThat(registry.settingsFor("customers")).isEqualTo(defaults);
                });
    }

    @Test
    void theLowWatermarkDefaultsToAQuarterOfEachSequencesOwnBlockSize() {
        contextRunner.withPropertyValues("seqgen.sequences.orders.block-size=400").run(context -> {
            SequenceRegistry registry = context.getBean(SequenceRegistry.class);
            assertThat(registry.defaults().lowWatermark()).isEqualTo(250);
            assertThat(registry.settingsFor("orders").lowWatermark()).isEqualTo(100);
        });
    }

    @Test
    void sequenceNamesThatAreNotPlainKeysAreWrittenInBrackets() {
        contextRunner.withPropertyValues("seqgen.sequences[Order.Lines].block-size=20").run(context -> {
            SequenceRegistry registry = context.getBean(SequenceRegistry.class);
            assertThat(registry.settingsFor("Order.Lines").blockSize()).isEqualTo(20);
            assertThat(registry.sourcesFor("Order.Lines"))
                    .containsExactly(Map.entry(Setting.BLOCK_SIZE, "seqgen.sequences[Order.Lines].block-size"));
        });
    }

    /**
     * The registry knows which values were set for a sequence, by property, so that the lines seqgen logs name those
     * and never take a default (built in, or from seqgen.defaults) for a value set for the sequence.
     */
    @Test
    void theRegistryIsToldThePropertyOfEachValueSetForASequence() {
        contextRunner.withPropertyValues("seqgen.defaults.block-size=20", "seqgen.sequences.orders.strategy=async-batch",
                "seqgen.sequences.orders.initial-value=7").run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.sourcesFor("orders")).containsExactly(
                            Map.entry(Setting.STRATEGY, "seqgen.sequences.orders.strategy"),
                            Map.entry(Setting.INITIAL_VALUE, "seqgen.sequences.orders.initial-value"));
                    assertThat(registry.sourcesFor("invoices")).as("nothing set for it").isEmpty();
                });
    }

    @Test
    void onAnEmbeddedDatabaseSeqgenCreatesTheTableAndTheConfiguredSequencesRows() {
        contextRunner.withPropertyValues("seqgen.sequences.orders.initial-value=100").run(context -> {
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            assertThat(jdbc.queryForObject("SELECT next_value FROM seqgen_sequences WHERE name = 'orders'",
                    Long.class)).isEqualTo(100);
            assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(100);
        });
    }

    @Test
    void aRenamedTableIsCreatedOnAnEmbeddedDatabaseWithTheSameStatement() {
        contextRunner.withPropertyValues("seqgen.table=app_sequences").run(context -> {
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM app_sequences", Integer.class)).isZero();
            assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES"
                    + " WHERE LOWER(TABLE_NAME) = 'seqgen_sequences'", Integer.class)).as("no unused table").isZero();
        });
    }

    @Test
    void aPlainDataSourceBeanIsEnoughWithoutBootsJdbcModules() {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:seqgen-plain;DB_CLOSE_DELAY=-1");
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SeqgenAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.jdbc",
                        "org.springframework.boot.sql"))
                .withBean(DataSource.class, () -> h2)
                .run(context -> {
                    assertThat(context).hasSingleBean(JdbcSequenceStore.class);
                    assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
                });
    }

    @Test
    void anApplicationSequenceStoreReplacesTheJdbcStore() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        contextRunner.withBean(SequenceStore.class, () -> store).run(context -> {
            assertThat(context).doesNotHaveBean(JdbcSequenceStore.class);
            assertThat(context.getBean(SequenceRegistry.class).store()).isSameAs(store);
        });
    }

    @Test
    void anApplicationRegistryReplacesTheAutoConfiguredOne() {
        SequenceRegistry registry = SequenceRegistry.builder(new InMemorySequenceStore()).build();
        contextRunner.withBean(SequenceRegistry.class, () -> registry)
                .run(context -> assertThat(context.getBean(SequenceRegistry.class)).isSameAs(registry));
    }

    @Test
    void customizersShapeTheRegistryInTheirOrder() {
        Executor direct = Runnable::run;
        contextRunner.withPropertyValues("seqgen.sequences.orders.block-size=10")
                .withBean("registeredFirstAppliedLast", SequenceRegistryCustomizer.class, () -> new Sized(20, 2))
                .withBean("registeredLastAppliedFirst", SequenceRegistryCustomizer.class, () -> new Sized(30, 1))
                .withBean("executor", SequenceRegistryCustomizer.class, () -> builder -> builder.executor(direct))
                .run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.settingsFor("orders").blockSize()).isEqualTo(20);
                    assertThat(registry.settingsFor("orders").lowWatermark()).isEqualTo(5);
                });
    }

    private record Sized(int blockSize, int order) implements SequenceRegistryCustomizer, Ordered {
        @Override
        public void customize(SequenceRegistry.Builder builder) {
            builder.sequence("orders", SequenceSettings.builder().blockSize(blockSize).build());
        }

        @Override
        public int getOrder() {
            return order;
        }
    }

    @Test
    void theSwitchTurnsEverythingOff() {
        contextRunner.withPropertyValues("seqgen.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(SequenceRegistry.class).doesNotHaveBean(SequenceStore.class);
            assertThat(context).doesNotHaveBean(SeqgenProperties.class);
        });
    }

    @Test
    void seqgenStoreSpannerTakesTheSequenceStoreBeanAndNotTheDataSource() {
        InMemorySequenceStore spannerLike = new InMemorySequenceStore();
        contextRunner.withPropertyValues("seqgen.store=spanner").withBean(SequenceStore.class, () -> spannerLike)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(JdbcSequenceStore.class);
                    assertThat(context.getBean(SequenceRegistry.class).store()).isSameAs(spannerLike);
                });
    }

    @Test
    void seqgenStoreJdbcUsesTheDataSource() {
        contextRunner.withPropertyValues("seqgen.store=jdbc")
                .run(context -> assertThat(context.getBean(SequenceRegistry.class).store())
                        .isInstanceOf(JdbcSequenceStore.class));
    }

    @Test
    void hibernateGetsTheRegistryAndIsToldItIsRequired() {
        contextRunner.run(context -> {
            Map<String, Object> hibernateProperties = new HashMap<>();
            context.getBean(HibernatePropertiesCustomizer.class).customize(hibernateProperties);
            assertThat(hibernateProperties).containsEntry(SeqgenHibernate.REGISTRY,
                    context.getBean(SequenceRegistry.class));
            assertThat(hibernateProperties).containsEntry(SeqgenHibernate.REGISTRY_REQUIRED, "true");
            assertThat(SeqgenHibernate.REGISTRY).isEqualTo("seqgen.hibernate.registry");
            assertThat(SeqgenHibernate.REGISTRY_REQUIRED).isEqualTo("seqgen.hibernate.registry-required");
        });
    }

    @Test
    void withoutHibernateTheRegistryStillWorks() {
        contextRunner.withClassLoader(new FilteredClassLoader("org.hibernate", "org.springframework.boot.hibernate"))
                .run(context -> {
                    assertThat(context).hasSingleBean(SequenceRegistry.class)
                            .doesNotHaveBean("seqgenHibernatePropertiesCustomizer");
                    assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
                });
    }

    @Test
    void closingTheContextGivesTheUnusedTailBack() {
        String url = "jdbc:h2:mem:seqgen-close;DB_CLOSE_DELAY=-1";
        contextRunner.withPropertyValues("spring.datasource.url=" + url, "seqgen.sequences.orders.block-size=100")
                .run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.sequence("orders").nextValues(3)).containsExactly(1, 2, 3);
                    assertThat(registry.store().nextValue("orders")).isEqualTo(OptionalLong.of(101));
                });
        JdbcTemplate jdbc = new JdbcTemplate(new DriverManagerDataSource(url, "sa", ""));
        assertThat(jdbc.queryForObject("SELECT next_value FROM seqgen_sequences WHERE name = 'orders'", Long.class))
                .isEqualTo(4L);
    }
}
