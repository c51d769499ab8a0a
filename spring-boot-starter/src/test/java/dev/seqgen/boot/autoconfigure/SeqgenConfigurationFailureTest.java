package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;

/** Every value seqgen rejects fails the start-up with the full property name, the value and what is allowed. */
class SeqgenConfigurationFailureTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of(List.of("seqgen.defaults.block-size=0"), "seqgen.defaults.block-size", "0",
                        "an integer >= 1"),
                Arguments.of(List.of("seqgen.defaults.low-watermark=-1"), "seqgen.defaults.low-watermark", "-1",
                        "an integer >= 0 and < block-size"),
                Arguments.of(List.of("seqgen.defaults.low-watermark=1000"), "seqgen.defaults.low-watermark", "1000",
                        "< block-size (1000)"),
                Arguments.of(List.of("seqgen.defaults.acquire-timeout=0s"), "seqgen.defaults.acquire-timeout", "PT0S",
                        "a positive duration"),
                Arguments.of(List.of("seqgen.defaults.initial-value=-5"), "seqgen.defaults.initial-value", "-5",
                        "an integer >= 0"),
                Arguments.of(List.of("seqgen.defaults.max-value=0"), "seqgen.defaults.max-value", "0",
                        "an integer from 1 to 9223372036854775806"),
                Arguments.of(List.of("seqgen.defaults.initial-value=100", "seqgen.defaults.max-value=10"),
                        "seqgen.defaults.initial-value", "100", "<= max-value (10)"),
                Arguments.of(List.of("seqgen.defaults.adaptive.enabled=true", "seqgen.defaults.adaptive.max-block-size=10"),
                        "seqgen.defaults.adaptive.max-block-size", "10", "an integer >= block-size (1000)"),
                Arguments.of(List.of("seqgen.defaults.adaptive.target-refill-interval=-1s"),
                        "seqgen.defaults.adaptive.target-refill-interval", "PT-1S", "a positive duration"),
                Arguments.of(List.of("seqgen.sequences.orders.block-size=0"), "seqgen.sequences.orders.block-size",
                        "0", "an integer >= 1"),
                Arguments.of(List.of("seqgen.sequences.orders.strategy=sync", "seqgen.sequences.orders.max-value=-3"),
                        "seqgen.sequences.orders.max-value", "-3", "an integer from 1 to"),
                Arguments.of(List.of("seqgen.sequences.orders.initial-value=10", "seqgen.sequences.orders.max-value=5"),
                        "seqgen.sequences.orders.initial-value", "10", "<= max-value (5)"),
                Arguments.of(List.of("seqgen.sequences.orders.acquire-timeout=-2s"),
                        "seqgen.sequences.orders.acquire-timeout", "PT-2S", "a positive duration"),
                Arguments.of(List.of("seqgen.sequences.orders.adaptive.target-refill-interval=0ms"),
                        "seqgen.sequences.orders.adaptive.target-refill-interval", "PT0S", "a positive duration"),
                Arguments.of(List.of("seqgen.sequences.orders.adaptive.max-block-size=0"),
                        "seqgen.sequences.orders.adaptive.max-block-size", "0", "an integer >= block-size"),
                Arguments.of(List.of("seqgen.defaults.low-watermark=500", "seqgen.sequences.orders.block-size=400"),
                        "seqgen.sequences.orders.low-watermark", "500",
                        "< block-size (400); the value is inherited from seqgen.defaults.low-watermark"),
                Arguments.of(List.of("seqgen.sequences[Order.Lines].block-size=-1"),
                        "seqgen.sequences[Order.Lines].block-size", "-1", "an integer >= 1"),
                Arguments.of(List.of("seqgen.sequences[bad name!].strategy=sync"), "seqgen.sequences[bad name!]",
                        "'bad name!'", "a sequence name of 1 to 64 characters of A-Z a-z 0-9 _ . -"),
                Arguments.of(List.of("seqgen.table=orders; DROP TABLE users"), "seqgen.table",
                        "'orders; DROP TABLE users'", "an unquoted identifier"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void aBadValueFailsTheStartUpNamingTheProperty(List<String> properties, String property, String value,
            String allowed) {
        contextRunner.withPropertyValues(properties.toArray(String[]::new)).run(context -> {
            assertThat(context).hasFailed();
            SequenceConfigurationException failure = findCause(context.getStartupFailure());
            assertThat(failure.setting()).isEqualTo(property);
            assertThat(String.valueOf(failure.value())).isEqualTo(value);
            assertThat(failure.allowed()).contains(allowed);
            assertThat(failure).hasMessageContaining(property).hasMessageContaining(value);
        });
    }

    @Test
    void aValueOfTheWrongTypeIsReportedByBootsBinderWithThePropertyNameAndTheValidValues() {
        contextRunner.withPropertyValues("seqgen.defaults.strategy=fastest").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = analyze(context.getStartupFailure(), new StandardEnvironment());
            assertThat(analysis.getDescription()).contains("seqgen.defaults.strategy").contains("fastest");
            assertThat(analysis.getAction()).contains("SYNC", "ASYNC", "BATCH", "ASYNC_BATCH");
        });
    }

    @Test
    void seqgenStoreSpannerWithoutTheSpannerStoreFailsSayingWhatIsMissing() {
        contextRunner.withPropertyValues("seqgen.store=spanner").run(context -> {
            SequenceConfigurationException failure = findCause(context.getStartupFailure());
            assertThat(failure.setting()).isEqualTo("seqgen.store");
            assertThat(failure.value()).isEqualTo("spanner");
            assertThat(failure.allowed()).startsWith("spanner with the seqgen-spanner module on the class path");
        });
    }

    @Test
    void seqgenStoreJdbcWithoutADataSourceFails() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SeqgenAutoConfiguration.class))
                .withPropertyValues("seqgen.store=jdbc").run(context -> {
                    SequenceConfigurationException failure = findCause(context.getStartupFailure());
                    assertThat(failure.setting()).isEqualTo("seqgen.store");
                    assertThat(failure.allowed()).startsWith("jdbc with a single (or a @Primary) DataSource bean");
                });
    }

    @Test
    void withNeitherADataSourceNorAStoreSeqgenBacksOff() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(SeqgenAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader("org.springframework.boot.jdbc"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SequenceRegistry.class));
    }

    @Test
    void theFailureAnalyzerIsRegisteredAndShowsPropertyValueOriginAndWhatIsAllowed() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        contextRunner.withBean(SequenceStore.class, () -> store)
                .withPropertyValues("seqgen.sequences.orders.block-size=0").run(context -> {
                    StandardEnvironment environment = new StandardEnvironment();
                    environment.getPropertySources().addFirst(new MapPropertySource("application-test",
                            Map.of("seqgen.sequences.orders.block-size", "0")));
                    FailureAnalysis analysis = analyze(context.getStartupFailure(), environment);
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .contains("Property: seqgen.sequences.orders.block-size")
                            .contains("Value: \"0\"")
                            .contains("Origin: \"seqgen.sequences.orders.block-size\" from property source"
                                    + " \"application-test\"")
                            .contains("Allowed: an integer >= 1");
                    assertThat(analysis.getAction()).isEqualTo("Update your application's configuration:"
                            + " seqgen.sequences.orders.block-size must be an integer >= 1.");
                });
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aRealApplicationReportsTheBadPropertyWithItsFileAndLine(CapturedOutput output) {
        SpringApplication application = new SpringApplication(BadApplication.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.setDefaultProperties(Map.of("spring.config.location", "classpath:bad-seqgen.properties",
                "spring.datasource.generate-unique-name", "true"));

        assertThatThrownBy(application::run).hasRootCauseInstanceOf(SequenceConfigurationException.class);

        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Property: seqgen.sequences.orders.low-watermark")
                .contains("Value: \"500\"")
                // Boot adds "from <jar>" when the file is inside a jar (as in the compatibility run).
                .containsPattern("Origin: class path resource \\[bad-seqgen.properties\\]( from \\S+)? - 2:31"
                        + " \\(seqgen.defaults.low-watermark\\)")
                .contains("Allowed: an integer >= 0 and < block-size (400); the value is inherited from"
                        + " seqgen.defaults.low-watermark")
                .contains("Update your application's configuration: seqgen.sequences.orders.low-watermark must be");
    }

    @SpringBootConfiguration
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class })
    static class BadApplication {
    }

    private static FailureAnalysis analyze(Throwable failure, Environment environment) {
        // As Spring Boot does on a failed start: every registered analyzer, the first analysis wins. Analyzers
        // that need a bean factory cannot be made here and are left out.
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
                .load(FailureAnalyzer.class, ArgumentResolver.of(Environment.class, environment),
                        (factoryType, factoryImplementationName, unavailable) -> { });
        assertThat(analyzers).hasAtLeastOneElementOfType(SeqgenConfigurationFailureAnalyzer.class);
        return analyzers.stream()
                .map(analyzer -> analyzer.analyze(failure))
                .filter(Objects::nonNull)
                .findFirst()
                .orElseThrow();
    }

    private static SequenceConfigurationException findCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SequenceConfigurationException e) {
                return e;
            }
        }
        throw new AssertionError("no SequenceConfigurationException in", failure);
    }
}
