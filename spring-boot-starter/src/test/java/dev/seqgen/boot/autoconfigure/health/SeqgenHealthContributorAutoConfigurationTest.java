package dev.seqgen.boot.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.actuate.SeqgenHealthIndicator;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;

import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

class SeqgenHealthContributorAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class,
                    SeqgenHealthContributorAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    @Test
    void upWithEachSequencesRowAndShareOfRangeUsed() {
        contextRunner.withPropertyValues("seqgen.sequences.orders.initial-value=100").run(context -> {
            context.getBean(SequenceRegistry.class).sequence("customers").next();

            Health health = context.getBean(SeqgenHealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("store", "h2");
            assertThat(health.getDetails()).extractingByKey("sequences", InstanceOfAssertFactories.MAP)
                    .containsOnlyKeys("customers", "orders")
                    .containsEntry("orders", Map.of("strategy", "async-batch", "kind", "table", "nextValue", 100L,
                            "capacityUsed", 0.0))
                    .extractingByKey("customers", InstanceOfAssertFactories.MAP)
                    .containsEntry("strategy", "async-batch")
                    .containsEntry("nextValue", 1001L);
        });
    }

    @Test
    void upWithNoSequencesYet() {
        contextRunner.run(context -> {
            Health health = context.getBean(SeqgenHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("sequences", Map.of());
        });
    }

    @Test
    void warningWhenASequenceHasUsedMoreThanTheThresholdOfItsRange() {
        contextRunner.withPropertyValues("seqgen.sequences.tickets.strategy=async",
                "seqgen.sequences.tickets.max-value=10").run(context -> {
                    Sequence tickets = context.getBean(SequenceRegistry.class).sequence("tickets");
                    for (int i = 0; i < 8; i++) {
                        tickets.next();
                    }
                    assertThat(context.getBean(SeqgenHealthIndicator.class).health().getStatus())
                            .as("80%% used is not more than the 0.8 default").isEqualTo(Status.UP);

                    tickets.next();
                    Health health = context.getBean(SeqgenHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(SeqgenHealthIndicator.WARNING);
                    assertThat(health.getStatus().getCode()).isEqualTo("WARNING");
                    assertThat(health.getDetails()).containsEntry("warnings",
                            List.of("sequence 'tickets' has used 90.0% of its range (warning above 80.0%)"));
                });
    }

    @Test
    void theThresholdIsAProperty() {
        contextRunner.withPropertyValues("seqgen.health.capacity-warning-threshold=0.95",
                "seqgen.sequences.tickets.strategy=async", "seqgen.sequences.tickets.max-value=10").run(context -> {
                    Sequence tickets = context.getBean(SequenceRegistry.class).sequence("tickets");
                    for (int i = 0; i < 9; i++) {
                        tickets.next();
                    }
                    assertThat(context.getBean(SeqgenHealthIndicator.class).health().getStatus())
                            .isEqualTo(Status.UP);
                    tickets.next();
                    assertThat(context.getBean(SeqgenHealthIndicator.class).health().getStatus())
                            .isEqualTo(SeqgenHealthIndicator.WARNING);
                });
    }

    @Test
    void warningCountsWhatOtherJvmsTookFromTheRowOfAConfiguredSequence() {
        contextRunner.withPropertyValues("seqgen.sequences.tickets.max-value=1000").run(context -> {
            new JdbcTemplate(context.getBean(DataSource.class))
                    .update("UPDATE seqgen_sequences SET next_value = 951 WHERE name = 'tickets'");

            Health health = context.getBean(SeqgenHealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(SeqgenHealthIndicator.WARNING);
            assertThat(health.getDetails()).extractingByKey("sequences", InstanceOfAssertFactories.MAP)
                    .extractingByKey("tickets", InstanceOfAssertFactories.MAP)
                    .containsEntry("capacityUsed", 0.95);
        });
    }

    @Test
    void downWhenTheRowOfASequenceInUseIsGone() {
        contextRunner.run(context -> {
            context.getBean(SequenceRegistry.class).sequence("orders").next();
            new JdbcTemplate(context.getBean(DataSource.class))
                    .update("DELETE FROM seqgen_sequences WHERE name = 'orders'");

            Health health = context.getBean(SeqgenHealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("missingRows", List.of("orders"));
        });
    }

    @Test
    void downWhenTheStoreFails() {
        contextRunner.withPropertyValues("seqgen.sequences.orders.block-size=10").run(context -> {
            new JdbcTemplate(context.getBean(DataSource.class)).execute("DROP TABLE seqgen_sequences");

            Health health = context.getBean(SeqgenHealthIndicator.class).health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).extractingByKey("error", InstanceOfAssertFactories.STRING)
                    .contains("reading sequence 'orders' in table seqgen_sequences (h2) failed");
        });
    }

    @Test
    void aThresholdOutsideZeroToOneFailsTheStartUp() {
        contextRunner.withPropertyValues("seqgen.health.capacity-warning-threshold=1.5").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(SequenceConfigurationException.class)
                    .hasMessage("invalid value for 'seqgen.health.capacity-warning-threshold': 1.5"
                            + " (allowed: a number greater than 0 and at most 1)");
        });
    }

    @Test
    void theIndicatorCanBeSwitchedOffLikeBootsOwn() {
        contextRunner.withPropertyValues("management.health.seqgen.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(SeqgenHealthIndicator.class)
                        .hasSingleBean(SequenceRegistry.class));
    }

    @Test
    void anApplicationIndicatorOfTheSameNameReplacesIt() {
        HealthIndicator own = () -> Health.up().build();
        contextRunner.withBean("seqgenHealthIndicator", HealthIndicator.class, () -> own)
                .run(context -> assertThat(context.getBean("seqgenHealthIndicator")).isSameAs(own));
    }

    @Test
    void withoutActuatorThereIsNoIndicator() {
        contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health",
                "org.springframework.boot.actuate")).run(context -> {
                    assertThat(context).doesNotHaveBean(SeqgenHealthIndicator.class);
                    assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
                });
    }
}
