package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SeqgenValue;
import dev.seqgen.SequenceRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport.ConditionAndOutcomes;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.data.mapping.PropertyHandler;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.util.ClassUtils;

/**
 * Fails the start-up of a context in which Spring Data JDBC would save {@link SeqgenValue} aggregates without seqgen's
 * Spring Data JDBC auto-configuration. A listener from {@code spring.factories}, so that it runs in every context.
 */
final class SeqgenUnservedAggregatesCheck implements ApplicationListener<ContextRefreshedEvent> {

    /** Spring Data JDBC's (not R2DBC's) mapping context. */
    private static final String JDBC_MAPPING_CONTEXT = "org.springframework.data.jdbc.core.mapping.JdbcMappingContext";

    private static final String DATA_JDBC_AUTO_CONFIGURATION =
            "dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration";

    @Override
    public void onApplicationEvent(ContextRefreshedEvent event) {
        ApplicationContext context = event.getApplicationContext();
        if (!(context instanceof ConfigurableApplicationContext configurable)
                || !ClassUtils.isPresent(JDBC_MAPPING_CONTEXT, context.getClassLoader())
                || !configurable.getEnvironment().getProperty("seqgen.enabled", Boolean.class, true)) {
            return;
        }
        DataJdbc.check(configurable.getBeanFactory());
    }

    /** The part that needs Spring Data JDBC. */
    private static final class DataJdbc {

        static void check(ConfigurableListableBeanFactory beanFactory) {
            Class<?> mappingContextType = ClassUtils.resolveClassName(JDBC_MAPPING_CONTEXT,
                    beanFactory.getBeanClassLoader());
            String[] mappingContexts = beanFactory.getBeanNamesForType(mappingContextType, false, false);
            if (mappingContexts.length == 0
                    || beanFactory.getBeanNamesForType(
                            ClassUtils.resolveClassName(DATA_JDBC_AUTO_CONFIGURATION, beanFactory.getBeanClassLoader()),
                            false, false).length > 0) {
                return;
            }
            List<String> annotated = new ArrayList<>();
            for (String name : mappingContexts) {
                var mappingContext = (RelationalMappingContext) beanFactory.getBean(name);
                for (RelationalPersistentEntity<?> entity : mappingContext.getPersistentEntities()) {
                    entity.doWithProperties((PropertyHandler<RelationalPersistentProperty>) property -> {
                        if (property.isAnnotationPresent(SeqgenValue.class)) {
                            annotated.add(entity.getType().getName() + "." + property.getName());
                        }
                    });
                }
            }
            if (annotated.isEmpty()) {
                return;
            }
            boolean registry = beanFactory.getBeanNamesForType(SequenceRegistry.class, false, false).length > 0;
            ConditionEvaluationReport report = ConditionEvaluationReport.find(beanFactory);
            ConditionAndOutcomes outcomes = report == null ? null
                    : report.getConditionAndOutcomesBySource().get(DATA_JDBC_AUTO_CONFIGURATION);
            String why = !registry ? "neither seqgen's auto-configuration (SeqgenAutoConfiguration, no"
                    + " SequenceRegistry bean) nor SeqgenDataJdbcAutoConfiguration is imported; a test slice or a"
                    + " @SpringBootTest of a plain @Configuration imports only the auto-configurations it names"
                    : outcomes == null
                            ? "seqgen's registry is there, and SeqgenDataJdbcAutoConfiguration is not imported"
                    : "SeqgenDataJdbcAutoConfiguration did not match: " + outcomes.stream()
                            .filter(outcome -> !outcome.getOutcome().isMatch())
                            .map(outcome -> outcome.getOutcome().getMessage()).collect(Collectors.joining("; "));
            String description = "seqgen: Spring Data JDBC would save " + annotated.stream().sorted()
                    .collect(Collectors.joining(", ", "the @SeqgenValue properties ", ""))
                    + " without seqgen's values (an id from an identity column or the database's default, a number"
                    + " left as it is), because seqgen's Spring Data JDBC support is not part of this application"
                    + " context: " + why + ".";
            String action = registry && outcomes == null
                    ? "Import it: @ImportAutoConfiguration(SeqgenDataJdbcAutoConfiguration.class), or use a test"
                            + " slice that imports it (@DataJdbcTest, @AutoConfigureDataJdbc, @JdbcTest,"
                            + " @AutoConfigureJdbc), or @EnableAutoConfiguration."
                    : registry ? "Give SeqgenDataJdbcAutoConfiguration what its conditions above ask for (a single"
                            + " DataSource or a @Primary one, Spring Data JDBC's mapping context and Dialect beans)."
                    : "Import seqgen's auto-configurations with the test: @AutoConfigureDataJdbc or @AutoConfigureJdbc"
                            + " (with a @SpringBootTest of a plain @Configuration), @DataJdbcTest or @JdbcTest, or"
                            + " @ImportAutoConfiguration({SeqgenAutoConfiguration.class,"
                            + " SeqgenDataJdbcAutoConfiguration.class}), or @EnableAutoConfiguration.";
            throw new SeqgenSetupException(description,
                    action + " Set seqgen.enabled=false to save these aggregates without seqgen.", null);
        }
    }
}
