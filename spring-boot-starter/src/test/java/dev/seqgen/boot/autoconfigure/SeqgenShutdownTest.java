package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A real Spring Boot application (Logback, as Boot configures it) closed as SIGTERM closes it: what each sequence
 * gave back, kept for the fleet or lost reaches the application's log at close, at INFO, and a store failure at
 * WARN with its cause, although Boot shuts its logging down before the beans are destroyed.
 */
@ExtendWith(OutputCaptureExtension.class)
class SeqgenShutdownTest {

    @Test
    void eachSequenceSaysAtCloseWhatItGaveBackAndWhatItKeptForTheFleet(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext context = application().run();
        DataSource dataSource = context.getBean(DataSource.class);
        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
        registry.sequence("orders").next();
        registry.sequence("orders").next();
        registry.sequence("orders").next();
        registry.sequence("invoices").next();
        // Another instance of the application takes an order id after this one: the row has moved past this
        // instance's block, so its unused order ids can only be kept for the fleet.
        try (SequenceRegistry otherInstance = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource).build())
                .defaults(SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(100).build()).build()) {
            assertThat(otherInstance.sequence("orders").next()).isEqualTo(101);
            assertThat(output).doesNotContain("closed after issuing");

            context.close();
        }

        assertThat(output)
                .containsPattern("INFO .*dev\\.seqgen\\.SequenceRegistry *: sequence 'orders' \\(async-batch\\) closed"
                        + " after issuing 3 values: kept \\[4, 101\\) for the fleet \\(the row has moved"
                        + " past it\\); lost nothing")
                .containsPattern("INFO .*dev\\.seqgen\\.SequenceRegistry *: sequence 'invoices' \\(batch\\) closed"
                        + " after issuing 1 value: gave back \\[2, 101\\) to the row; lost nothing");
    }

    @Test
    void aStoreThatFailsAtCloseIsReportedAsAWarningWithWhatWasLost(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext context = application().run();
        DataSource dataSource = context.getBean(DataSource.class);
        context.getBean(SequenceRegistry.class).sequence("invoices").next();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("ALTER TABLE seqgen_sequences RENAME TO seqgen_sequences_gone");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }

        context.close();

        assertThat(output)
                .containsPattern("WARN .*dev\\.seqgen\\.SequenceRegistry *: sequence 'invoices' \\(batch\\) closed"
                        + " after issuing 1 value: lost \\[2, 101\\) \\(99 values\\): giving them back failed")
                .contains("SEQGEN_SEQUENCES");
    }

    @Test
    void aPausedContextKeepsItsRegistryAndServesAgainWhenItResumes(CapturedOutput output) {
        ConfigurableApplicationContext context = application().run();
        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
        assertThat(registry.sequence("orders").nextValues(3)).containsExactly(1, 2, 3);

        context.pause();   // as Spring's test framework pauses a cached context when the next class needs another

        assertThat(output).as("a pause closes nothing").doesNotContain("closed after issuing");
        context.restart();
        assertThat(registry.sequence("orders").nextValues(2)).as("the block in hand, where it left off")
                .containsExactly(4, 5);
        context.pause();
        context.restart();
        assertThat(registry.sequence("orders").next()).isEqualTo(6);
        context.close();

        assertThat(output).containsPattern("sequence 'orders' \\(async-batch\\) closed after issuing 6 values:"
                + " gave back \\[7, 101\\) to the row; lost nothing");
    }

    @Test
    void aContextClosedWhilePausedReportsAsAnyClose(CapturedOutput output) {
        ConfigurableApplicationContext context = application().run();
        context.getBean(SequenceRegistry.class).sequence("invoices").nextValues(2);
        context.pause();

        context.close();

        assertThat(output).containsPattern("sequence 'invoices' \\(batch\\) closed after issuing 2 values: gave back"
                + " \\[3, 101\\) to the row; lost nothing");
    }

    @Test
    void aStartAfterAStopClosedTheRegistryFailsSayingSo(CapturedOutput output) {
        ConfigurableApplicationContext context = application().run();
        context.getBean(SequenceRegistry.class).sequence("orders").next();
        try {
            context.stop();
            assertThat(output).contains("sequence 'orders' (async-batch) closed after issuing 1 value");

            assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the SequenceRegistry was closed when the application context was stopped")
                    .hasMessageContaining("ConfigurableApplicationContext.pause()");
        } finally {
            context.close();
        }
    }

    private static SpringApplication application() {
        SpringApplication application = new SpringApplication(ShutdownApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setDefaultProperties(Map.of("spring.datasource.generate-unique-name", "true",
                "seqgen.defaults.strategy", "async-batch", "seqgen.defaults.block-size", "100",
                "seqgen.defaults.low-watermark", "10", "seqgen.defaults.adaptive.enabled", "false",
                "seqgen.sequences.invoices.strategy", "batch"));
        return application;
    }

    @SpringBootConfiguration
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class })
    static class ShutdownApplication {
    }
}
