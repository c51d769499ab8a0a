package dev.seqgen.boot.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.actuate.SeqgenHealthIndicator;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The starter's operations of series: the idle timeout and the warm-up of known series by property, the health of
 * series near exhaustion and the report at the stop, bounded however many series are open.
 */
@ExtendWith(OutputCaptureExtension.class)
class SeqgenSeriesOperationsTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class,
                    SeqgenHealthContributorAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    /** The series named under seqgen.series.warm-up hold their first blocks once the runners have run. */
    @Test
    void theKnownSeriesAreWarmedUpBeforeReadinessAndTheIdleTimeoutIsTheProperty() {
        contextRunner.withPropertyValues("seqgen.sequences.invoices.strategy=batch",
                "seqgen.sequences.invoices.block-size=10", "seqgen.series.idle-timeout=30m",
                "seqgen.series.warm-up.invoices=acme/2026,globex/2026").run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.seriesIdleTimeout()).isEqualTo(Duration.ofMinutes(30));
                    assertThat(registry.openSeries("invoices")).as("not before the runners").isEmpty();

                    for (ApplicationRunner runner : context.getBeansOfType(ApplicationRunner.class).values()) {
                        runner.run(new DefaultApplicationArguments());
                    }

                    Map<String, Sequence> open = registry.openSeries("invoices");
                    assertThat(open).containsOnlyKeys("acme/2026", "globex/2026");
                    assertThat(open.values()).allSatisfy(series -> assertThat(series.stats().remaining())
                            .as("its first block in hand").isEqualTo(10));
                });
    }

    @Test
    void theIdleTimeoutDefaultsToTenMinutesAndANegativeOneFailsTheStartUpNamingTheProperty() {
        contextRunner.run(context -> assertThat(context.getBean(SequenceRegistry.class).seriesIdleTimeout())
                .isEqualTo(Duration.ofMinutes(10)));
        contextRunner.withPropertyValues("seqgen.series.idle-timeout=-1s").run(context -> assertThat(context)
                .getFailure().rootCause().hasMessageContaining("seqgen.series.idle-timeout"));
    }

    /**
     * Twelve series of a sequence past the threshold, by what this JVM reserved, among 30 open: the health names the
     * ten most used and counts the other two, and lists the series by sequence, never one detail per series.
     */
    @Test
    void healthNamesTheSeriesNearExhaustionTenAtMostAndCountsTheRest() {
        contextRunner.withPropertyValues("seqgen.sequences.invoices.strategy=batch",
                "seqgen.sequences.invoices.block-size=1", "seqgen.sequences.invoices.max-value=10").run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    for (int tenant = 0; tenant < 30; tenant++) {
                        // Nine of ten values for the first twelve tenants, one for the others.
                        registry.series("invoices", "tenant-" + tenant).nextValues(tenant < 12 ? 9 : 1);
                    }

                    Health health = context.getBean(SeqgenHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(SeqgenHealthIndicator.WARNING);
                    assertThat(health.getDetails()).extractingByKey("series", InstanceOfAssertFactories.MAP)
                            .containsExactly(Map.entry("invoices", Map.of("open", 30, "nearExhaustion", 12)));
                    assertThat(health.getDetails()).extractingByKey("sequences", InstanceOfAssertFactories.MAP)
                            .as("the configured sequence, none of its series").containsOnlyKeys("invoices");
                    @SuppressWarnings("unchecked")
                    List<String> warnings = (List<String>) health.getDetails().get("warnings");
                    assertThat(warnings).hasSize(SeqgenHealthIndicator.NAMED_SERIES + 1)
                            .contains("series 'tenant-0' of sequence 'invoices' has used 90.0% of its range"
                                    + " (warning above 80.0%)")
                            .last().isEqualTo("and 2 more series of sequence 'invoices' above 80.0% of their range");
                });
    }

    /** At the stop, a sequence's series are reported in one line, however many tenants there were. */
    @Test
    void theStopReportsASequencesSeriesInOneLine(CapturedOutput output) {
        contextRunner.withPropertyValues("seqgen.sequences.invoices.strategy=batch",
                "seqgen.sequences.invoices.block-size=10").run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    for (int tenant = 0; tenant < 3; tenant++) {
                        registry.series("invoices", "tenant-" + tenant).next();
                    }
                });
        assertThat(output).contains("sequence 'invoices' (batch): 3 series closed after issuing 3 values: gave back"
                + " 27 values to the rows of 3 series; lost nothing").doesNotContain("'invoices#tenant-");
    }

    @Test
    void healthIsUpWithSeriesBelowTheThreshold() {
        contextRunner.withPropertyValues("seqgen.sequences.invoices.strategy=batch",
                "seqgen.sequences.invoices.block-size=1").run(context -> {
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    registry.series("invoices", "acme").next();

                    Health health = context.getBean(SeqgenHealthIndicator.class).health();

                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).extractingByKey("series", InstanceOfAssertFactories.MAP)
                            .containsExactly(Map.entry("invoices", Map.of("open", 1, "nearExhaustion", 0)));
                });
    }
}
