package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.LogRecords;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.mock.env.MockEnvironment;

/** A {@code seqgen.*} property that binds to nothing is reported at start-up with the nearest known name. */
class UnknownPropertiesTest {

    @Test
    void typosAreFoundWithTheNearestKnownName() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("seqgen.sequence.orders.block-size", "50")
                .withProperty("seqgen.defaults.blocksize", "50")
                .withProperty("seqgen.sequences.orders.block-sise", "50")
                .withProperty("seqgen.schema.initialise", "always")
                .withProperty("seqgen.defaults.block-size", "50")
                .withProperty("seqgen.sequences.orders.adaptive.max-block-size", "5000")
                .withProperty("seqgen.sequences[Order.Lines].kind", "table")
                .withProperty("seqgen.schema.initialize", "always")
                .withProperty("seqgen.health.capacity-warning-threshold", "0.5")
                .withProperty("seqgen.spanner.project-id", "p")
                .withProperty("seqgen.enabled", "true")
                .withProperty("spring.datasource.url", "jdbc:h2:mem:x");
        assertThat(UnknownProperties.find(environment)).containsExactlyInAnyOrder(
                "seqgen.sequence.orders.block-size (did you mean seqgen.sequences.orders.block-size?)",
                "seqgen.defaults.blocksize (did you mean seqgen.defaults.block-size?)",
                "seqgen.sequences.orders.block-sise (did you mean seqgen.sequences.orders.block-size?)",
                "seqgen.schema.initialise (did you mean seqgen.schema.initialize?)");
    }

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void theStartUpLogsEachUnknownPropertyAsAWarning() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        SeqgenAutoConfiguration.class))
                .withPropertyValues("spring.datasource.generate-unique-name=true",
                        "seqgen.sequence.orders.block-size=50")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(logs.messages(Level.WARNING)).anySatisfy(message -> assertThat(message)
                .contains("seqgen.sequence.orders.block-size")
                .contains("did you mean seqgen.sequences.orders.block-size?").contains("ignored"));
    }

    /**
     * Environment variables are read with Spring's relaxed binding: the test servers' {@code SEQGENTEST_*} are
     * outside {@code seqgen.*}, so they are not reported; the variables that bind (both of Spring's forms, a
     * sequence name with underscores) are not either; a misspelt {@code SEQGEN_*} variable is.
     */
    @Test
    void aMisspeltEnvironmentVariableIsReportedAndTheTestServersVariablesAreNot() {
        MockEnvironment environment = new MockEnvironment();
        environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(
                        "SEQGENTEST_POSTGRES_URL", "jdbc:postgresql://localhost:5432/seqgen_test",
                        "SEQGENTEST_REQUIRE_DATABASES", "true",
                        "SEQGEN_DEFAULTS_BLOCKSIZE", "50",
                        "SEQGEN_DEFAULTS_ADAPTIVE_MAX_BLOCK_SIZE", "5000",
                        "SEQGEN_JDBC_DEDICATEDCONNECTION", "true",
                        "SEQGEN_SEQUENCES_INVOICE_NUMBERS_STRATEGY", "sync",
                        "SEQGEN_DEFAULTS_BLOCKSISE", "50")));
        assertThat(UnknownProperties.find(environment)).containsExactly(
                "seqgen.defaults.blocksise (did you mean seqgen.defaults.block-size?)");
    }
}
