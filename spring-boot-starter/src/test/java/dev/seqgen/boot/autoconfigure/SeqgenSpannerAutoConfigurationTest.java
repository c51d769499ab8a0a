package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.SessionPoolOptions;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinitionCustomizer;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Which store the starter chooses when the Spanner client is on the class path, without a Spanner server:
 * the store is built but never used ({@link SeqgenSpannerEmulatorTest} use it, and the client the starter
 * creates). The clients here point at a port nothing listens on and create no sessions up front.
 */
class SeqgenSpannerAutoConfigurationTest {

    private static final String[] DATABASE = { "seqgen.spanner.project-id=p", "seqgen.spanner.instance-id=i",
            "seqgen.spanner.database-id=d", "seqgen.spanner.emulator-host=localhost:1" };

    /** With an embedded H2 DataSource, as an application with a JDBC driver on the class path has. */
    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    SeqgenSpannerAutoConfiguration.class, SeqgenAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    /** Without a DataSource. */
    private final ApplicationContextRunner spannerOnlyRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqgenSpannerAutoConfiguration.class,
                    SeqgenAutoConfiguration.class));

    @Test
    void aSpannerBeanIsUsedWithTheDatabaseOfTheProperties() {
        Spanner spanner = unconnectedSpanner();
        spannerOnlyRunner.withBean(Spanner.class, () -> spanner, closeWithContext())
                .withPropertyValues("seqgen.spanner.instance-id=i", "seqgen.spanner.database-id=d")
                .run(context -> {
                    assertThat(context).hasSingleBean(SpannerSequenceStore.class).hasSingleBean(Spanner.class)
                            .doesNotHaveBean("seqgenSpanner");
                });
    }

    @Test
    void aDatabaseClientBeanIsUsedAndNeedsNoSpannerProperties() {
        Spanner spanner = unconnectedSpanner();
        spannerOnlyRunner.withBean(DatabaseClient.class, () -> spanner.getDatabaseClient(DatabaseId.of("p", "i", "d")))
                .run(context -> {
                    assertThat(context).hasSingleBean(SpannerSequenceStore.class).doesNotHaveBean(Spanner.class);
                    assertThat(context.getBean(SequenceRegistry.class).store())
                            .isSameAs(context.getBean(SpannerSequenceStore.class));
                });
        spanner.close();
    }

    @Test
    void autoPrefersASingleDataSourceToASpannerBean() {
        Spanner spanner = unconnectedSpanner();
        contextRunner.withBean(Spanner.class, () -> spanner, closeWithContext()).withPropertyValues(DATABASE)
                .run(context -> assertThat(context).hasSingleBean(JdbcSequenceStore.class)
                        .doesNotHaveBean(SpannerSequenceStore.class));
    }

    @Test
    void seqgenStoreJdbcTakesTheDataSourceEvenWithASpannerBean() {
        Spanner spanner = unconnectedSpanner();
        contextRunner.withBean(Spanner.class, () -> spanner, closeWithContext())
                .withPropertyValues("seqgen.store=jdbc").withPropertyValues(DATABASE)
                .run(context -> assertThat(context).hasSingleBean(JdbcSequenceStore.class)
                        .doesNotHaveBean(SpannerSequenceStore.class));
    }

    @Test
    void autoWithoutASpannerBeanOrADataSourceBuildsNoSpannerStore() {
        spannerOnlyRunner.withPropertyValues(DATABASE).run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(SpannerSequenceStore.class).doesNotHaveBean(SequenceRegistry.class));
    }

    @Test
    void aSequenceStoreOfTheApplicationMakesEverySpannerBeanBackOff() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        contextRunner.withPropertyValues("seqgen.store=spanner").withPropertyValues(DATABASE)
                .withBean(SequenceStore.class, () -> store).run(context -> {
                    assertThat(context).doesNotHaveBean(SpannerSequenceStore.class).doesNotHaveBean(Spanner.class);
                    assertThat(context.getBean(SequenceRegistry.class).store()).isSameAs(store);
                });
    }

    @Test
    void withoutTheSpannerClientThereAreNoSpannerBeans() {
        contextRunner.withClassLoader(new FilteredClassLoader(Spanner.class)).withPropertyValues(DATABASE)
                .run(context -> assertThat(context).hasSingleBean(JdbcSequenceStore.class)
                        .doesNotHaveBean(SpannerSequenceStore.class).doesNotHaveBean("seqgenSpanner"));
        contextRunner.withClassLoader(new FilteredClassLoader(Spanner.class))
                .withPropertyValues("seqgen.store=spanner").withPropertyValues(DATABASE)
                .run(context -> assertThat(failure(context.getStartupFailure()).setting()).isEqualTo("seqgen.store"));
    }

    @Test
    void seqgenDisabledCreatesNoSpannerBeans() {
        contextRunner.withPropertyValues("seqgen.enabled=false", "seqgen.store=spanner").withPropertyValues(DATABASE)
                .run(context -> assertThat(context).doesNotHaveBean(SpannerSequenceStore.class)
                        .doesNotHaveBean(Spanner.class).doesNotHaveBean(SequenceRegistry.class));
    }

    @Test
    void badValuesFailWithTheFullPropertyName() {
        Spanner client = unconnectedSpanner();
        ApplicationContextRunner withClient = spannerOnlyRunner.withPropertyValues("seqgen.store=spanner")
                .withBean(DatabaseClient.class, () -> client.getDatabaseClient(DatabaseId.of("p", "i", "d")));
        withClient.withPropertyValues("seqgen.spanner.operation-timeout=0s").run(context -> {
            SequenceConfigurationException failure = failure(context.getStartupFailure());
            assertThat(failure.setting()).isEqualTo("seqgen.spanner.operation-timeout");
            assertThat(failure.allowed()).isEqualTo("a positive duration");
        });
        withClient.withPropertyValues("seqgen.table=seq;drop").run(context -> {
            assertThat(failure(context.getStartupFailure()).setting()).isEqualTo("seqgen.table");
        });
        client.close();
        // The Spanner client of the properties is created, but no database client before the check.
        ApplicationContextRunner spanner = spannerOnlyRunner.withPropertyValues("seqgen.store=spanner");
        spanner.withPropertyValues("seqgen.spanner.project-id=p", "seqgen.spanner.database-id=d",
                "seqgen.spanner.emulator-host=localhost:1").run(context -> {
                    SequenceConfigurationException failure = failure(context.getStartupFailure());
                    assertThat(failure.setting()).isEqualTo("seqgen.spanner.instance-id");
                    assertThat(failure.allowed()).contains("no DatabaseClient bean");
                });
        spanner.withPropertyValues("seqgen.spanner.project-id=p", "seqgen.spanner.instance-id=i",
                "seqgen.spanner.emulator-host=localhost:1").run(context -> {
                    assertThat(failure(context.getStartupFailure()).setting()).isEqualTo("seqgen.spanner.database-id");
                });
    }

    private static Spanner unconnectedSpanner() {
        return SpannerOptions.newBuilder().setProjectId("p").setEmulatorHost("localhost:1")
                .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(0).build()).build().getService();
    }

    private static BeanDefinitionCustomizer closeWithContext() {
        return definition -> ((AbstractBeanDefinition) definition).setDestroyMethodName("close");
    }

    private static SequenceConfigurationException failure(Throwable startupFailure) {
        assertThat(startupFailure).isNotNull();
        for (Throwable cause = startupFailure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SequenceConfigurationException configuration) {
                return configuration;
            }
        }
        throw new AssertionError("no SequenceConfigurationException in " + startupFailure, startupFailure);
    }
}
