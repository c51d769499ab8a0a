package dev.seqgen.boot.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.Setting;
import dev.seqgen.boot.actuate.SeqgenEndpoint;
import dev.seqgen.boot.actuate.SeqgenEndpoint.BlockDescriptor;
import dev.seqgen.boot.actuate.SeqgenEndpoint.CountersDescriptor;
import dev.seqgen.boot.actuate.SeqgenEndpoint.SeqgenDescriptor;
import dev.seqgen.boot.actuate.SeqgenEndpoint.SequenceDescriptor;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.testing.InMemorySequenceStore;

import java.util.Arrays;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

class SeqgenEndpointAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class,
                    SeqgenEndpointAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true",
                    "management.endpoints.web.exposure.include=seqgen");

    @Test
    void listsEverySequenceInUseOrConfiguredWithItsBlockRowAndCounters() {
        contextRunner.withPropertyValues("seqgen.sequences.orders.strategy=batch",
                "seqgen.sequences.orders.block-size=10", "seqgen.sequences.invoices.strategy=sync",
                "seqgen.sequences.invoices.initial-value=1000").run(context -> {
                    Sequence orders = context.getBean(SequenceRegistry.class).sequence("orders");
                    for (int i = 0; i < 13; i++) {
                        orders.next();
                    }

                    SeqgenDescriptor descriptor = context.getBean(SeqgenEndpoint.class).sequences();

                    assertThat(descriptor.store()).isEqualTo("h2");
                    assertThat(descriptor.sequences()).containsOnlyKeys("invoices", "orders");
                    SequenceDescriptor batch = descriptor.sequences().get("orders");
                    assertThat(batch.strategy()).isEqualTo("batch");
                    assertThat(batch.inUse()).isTrue();
                    assertThat(batch.currentBlock()).isEqualTo(new BlockDescriptor(11, 20));
                    assertThat(batch.remaining()).isEqualTo(7);
                    assertThat(batch.blockSize()).isEqualTo(10);
                    assertThat(batch.refillPoint()).as("batch refills on the caller's path").isZero();
                    assertThat(batch.storeNextValue()).isEqualTo(21);
                    assertThat(batch.storeError()).isNull();
                    assertThat(batch.highestReserved()).isEqualTo(20);
                    assertThat(batch.counters()).isEqualTo(new CountersDescriptor(13, 2, 0, 0, 2, 0, 0));
                    assertThat(batch.settings()).as("valued as a properties file sets them")
                            .contains(entry("strategy", "batch"), entry("kind", "table"), entry("block-size", 10),
                                    entry("low-watermark", 2), entry("acquire-timeout", "PT5S"),
                                    entry("max-value", Long.MAX_VALUE - 1), entry("adaptive.enabled", false),
                                    entry("adaptive.target-refill-interval", "PT1S"));
                    assertThat(batch.settings().keySet()).as("every setting, in the order of Setting").containsExactly(Arrays.stream(Setting.values())
                            .map(Setting::key).toArray(String[]::new));

                    SequenceDescriptor notUsedYet = descriptor.sequences().get("invoices");
                    assertThat(notUsedYet.strategy()).isEqualTo("sync");
                    assertThat(notUsedYet.inUse()).isFalse();
                    assertThat(notUsedYet.storeNextValue()).as("row created at start-up").isEqualTo(1000);
                    assertThat(notUsedYet.currentBlock()).isNull();
                    assertThat(notUsedYet.counters()).isNull();
                });
    }

    @Test
    void showsOneSequenceBySelector() {
        contextRunner.run(context -> {
            context.getBean(SequenceRegistry.class).sequence("customers").next();
            SeqgenEndpoint endpoint = context.getBean(SeqgenEndpoint.class);

            SequenceDescriptor customers = endpoint.sequence("customers");

            assertThat(customers.strategy()).isEqualTo("async-batch");
            assertThat(customers.currentBlock()).isEqualTo(new BlockDescriptor(1, 1000));
            assertThat(customers.counters().issued()).isEqualTo(1);
            assertThat(customers.blockSize()).isEqualTo(1000);
            assertThat(customers.refillPoint()).as("the low watermark until the sequence has measured a rate")
                    .isEqualTo(250);
            assertThat(customers.settings()).as("async-batch adapts by default").containsEntry("adaptive.enabled", true);
            assertThat(endpoint.sequence("unknown")).isNull();
        });
    }

    /**
     * A sequence used only through its series (no row of its own) is listed, and answers by its name, with its
     * settings, its open series and where they are listed, with or without Hibernate on the class path.
     */
    @Test
    void aSequenceNumberedOnlyInSeriesIsListedWithItsSeries() {
        for (ClassLoader classLoader : new ClassLoader[] {getClass().getClassLoader(),
                new FilteredClassLoader("org.hibernate")}) {
            contextRunner.withClassLoader(classLoader).withPropertyValues("seqgen.sequences.ledger.strategy=batch")
                    .run(context -> {
                        assertThat(context.getBeansOfType(SeqgenEndpoint.MappedSeries.class)).as("with Hibernate")
                                .hasSize(classLoader instanceof FilteredClassLoader ? 0 : 1);
                        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                        registry.series("ledger", "acme/2026").next();
                        registry.series("ledger", "globex/2026");
                        SeqgenEndpoint endpoint = context.getBean(SeqgenEndpoint.class);
                        registry.series("journal", "acme");

                        SequenceDescriptor ledger = endpoint.sequence("ledger");

                        assertThat(ledger).isNotNull();
                        assertThat(ledger.strategy()).isEqualTo("batch");
                        assertThat(ledger.inUse()).as("only its series are").isFalse();
                        assertThat(ledger.storeNextValue()).as("its row, made at start-up as configured, unused")
                                .isEqualTo(1);
                        assertThat(ledger.openSeries()).isEqualTo(2);
                        assertThat(ledger.seriesPage()).isEqualTo("ledger/{prefix}");
                        assertThat(endpoint.series("ledger", new String[] {"acme"}, null).series().get("acme/2026")
                                .counters().issued()).isEqualTo(1);
                        assertThat(endpoint.sequences().sequences()).as("configured, or numbered in series")
                                .containsOnlyKeys("journal", "ledger");
                        assertThat(endpoint.sequences().sequences().get("journal").openSeries()).isEqualTo(1);
                        assertThat(endpoint.sequence("journal").strategy()).as("the defaults")
                                .isEqualTo("async-batch");
                    });
        }
    }

    @Test
    void aStoreErrorIsShownNotThrown() {
        contextRunner.withPropertyValues("seqgen.sequences.orders.block-size=10").run(context -> {
            new JdbcTemplate(context.getBean(DataSource.class)).execute("DROP TABLE seqgen_sequences");

            SequenceDescriptor orders = context.getBean(SeqgenEndpoint.class).sequence("orders");

            assertThat(orders.storeNextValue()).isNull();
            assertThat(orders.storeError()).contains("reading sequence 'orders' in table seqgen_sequences");
        });
    }

    @Test
    void notAvailableUnlessExposed() {
        contextRunner.withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).doesNotHaveBean(SeqgenEndpoint.class));
    }

    @Test
    void anApplicationEndpointReplacesIt() {
        SeqgenEndpoint own = new SeqgenEndpoint(SequenceRegistry.builder(new InMemorySequenceStore()).build(), Set.of());
        contextRunner.withBean(SeqgenEndpoint.class, () -> own)
                .run(context -> assertThat(context.getBean(SeqgenEndpoint.class)).isSameAs(own));
    }

    @Test
    void withoutActuatorThereIsNoEndpoint() {
        contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate")).run(context -> {
            assertThat(context).doesNotHaveBean(SeqgenEndpoint.class);
            assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
        });
    }
}
