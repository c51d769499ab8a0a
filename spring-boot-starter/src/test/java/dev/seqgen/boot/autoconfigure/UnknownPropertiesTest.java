package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.LogRecords;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.env.MockEnvironment;

/** A {@code seqgen.*} property that binds to nothing is reported at start-up with the nearest known name. */
class UnknownPropertiesTest {

    @Test
    void typosAreFoundWithTheNearestKnownName() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("seqgen.sequence.orders.block-size", "50")
                .withProperty("seqgen.defaults.blocksize", "50")
                .withProperty("seqgen.sequences.orders.block-sise", "50")
                .withProperty("seqgen.jdbc.initialise-schema", "always")
                .withProperty("seqgen.defaults.block-size", "50")
                .withProperty("seqgen.sequences.orders.adaptive.max-block-size", "5000")
                .withProperty("seqgen.sequences[Order.Lines].kind", "table")
                .withProperty("seqgen.jdbc.initialize-schema", "always")
                .withProperty("seqgen.health.capacity-warning-threshold", "0.5")
                .withProperty("seqgen.spanner.project-id", "p")
                .withProperty("seqgen.enabled", "true")
                .withProperty("spring.datasource.url", "jdbc:h2:mem:x");
        assertThat(UnknownProperties.find(environment)).containsExactlyInAnyOrder(
                "seqgen.sequence.orders.block-size (did you mean seqgen.sequences.orders.block-size?)",
                "seqgen.defaults.blocksize (did you mean seqgen.defaults.block-size?)",
                "seqgen.sequences.orders.block-sise (did you mean seqgen.sequences.orders.block-size?)",
                "seqgen.jdbc.initialise-schema (did you mean seqgen.jdbc.initialize-schema?)");
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
}
