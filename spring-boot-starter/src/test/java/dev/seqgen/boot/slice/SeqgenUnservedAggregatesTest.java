package dev.seqgen.boot.slice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenFailureAnalyses;
import dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration;
import dev.seqgen.boot.slice.kits.KitConfiguration;
import dev.seqgen.boot.slice.kits.SliceKit;
import dev.seqgen.boot.slice.kits.SliceKitRepository;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;

import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A context in which Spring Data JDBC would save {@code @SeqgenValue} aggregates without seqgen fails at start-up,
 * saying why and what to add, as a {@code @SpringBootTest(classes = ...)} of a plain {@code @Configuration} without
 * a slice annotation would (it starts the context through {@code SpringApplication}, as here).
 */
class SeqgenUnservedAggregatesTest {

    @Test
    void withoutSeqgensAutoConfigurationTheStartUpFailsNamingTheAggregatesAndWhatToAdd() {
        assertThatThrownBy(() -> start(PlainApplication.class).close())
                .hasMessageContainingAll("seqgen: Spring Data JDBC would save the @SeqgenValue properties "
                        + SliceKit.class.getName() + ".id, " + SliceKit.class.getName() + ".number without seqgen's"
                        + " values", "neither seqgen's auto-configuration");
        assertThatThrownBy(() -> start(PlainApplication.class).close()).satisfies(failure -> assertThat(
                actionOf(failure)).contains("@AutoConfigureDataJdbc or @AutoConfigureJdbc",
                        "@ImportAutoConfiguration({SeqgenAutoConfiguration.class, SeqgenDataJdbcAutoConfiguration.class})",
                        "seqgen.enabled=false"));
    }

    @Test
    void withSeqgensRegistryButNotItsSpringDataJdbcSupportTheStartUpFailsSayingWhatToImport() {
        assertThatThrownBy(() -> start(RegistryOnlyApplication.class).close())
                .hasMessageContaining("seqgen's registry is there, and SeqgenDataJdbcAutoConfiguration is not imported");
        assertThatThrownBy(() -> start(RegistryOnlyApplication.class).close()).satisfies(failure -> assertThat(
                actionOf(failure)).contains("@ImportAutoConfiguration(SeqgenDataJdbcAutoConfiguration.class)"));
    }

    @Test
    void whenSeqgensSpringDataJdbcSupportDoesNotMatchTheStartUpFailsNamingTheConditions() {
        assertThatThrownBy(() -> start(TwoDataSourcesApplication.class).close()).hasMessageContainingAll(
                "SeqgenDataJdbcAutoConfiguration did not match: ", "@ConditionalOnSingleCandidate",
                "javax.sql.DataSource");
        assertThatThrownBy(() -> start(TwoDataSourcesApplication.class).close()).satisfies(failure -> assertThat(
                actionOf(failure)).contains("a single DataSource or a @Primary one"));
    }

    @Test
    void seqgenDisabledStartsAndLeavesTheAggregatesToTheDatabase() {
        try (ConfigurableApplicationContext context = start(PlainApplication.class, "seqgen.enabled=false")) {
            SliceKit saved = context.getBean(SliceKitRepository.class).save(new SliceKit("a"));
            assertThat(saved.getId()).as("the identity column's").isEqualTo(1);
        }
    }

    private static ConfigurableApplicationContext start(Class<?> application, String... properties) {
        return new SpringApplicationBuilder(application).web(WebApplicationType.NONE).properties(properties).run();
    }

    /** The action of Spring Boot's failure analysis, as the start-up's report prints it. */
    private static String actionOf(Throwable failure) {
        return SeqgenFailureAnalyses.analyze(failure).getAction();
    }

    /** Spring Data JDBC set up by hand, no auto-configuration at all. */
    @Configuration(proxyBeanMethods = false)
    @Import(KitConfiguration.class)
    static class PlainApplication {

        @Bean
        DataSource dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
                    .setName("unserved-" + UUID.randomUUID()).addScript("dev/seqgen/boot/slice/schema.sql").build();
        }

        @Bean
        NamedParameterJdbcTemplate namedParameterJdbcTemplate(DataSource dataSource) {
            return new NamedParameterJdbcTemplate(dataSource);
        }

        @Bean
        JdbcTemplate jdbcTemplate(NamedParameterJdbcTemplate jdbc) {
            return jdbc.getJdbcTemplate();
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }
    }

    /**
     * Both of seqgen's auto-configurations, a registry over a store of the application's, and two DataSources: the
     * Spring Data JDBC support needs a single one.
     */
    @Configuration(proxyBeanMethods = false)
    @Import(PlainApplication.class)
    @ImportAutoConfiguration({ SeqgenAutoConfiguration.class, SeqgenDataJdbcAutoConfiguration.class })
    static class TwoDataSourcesApplication {

        @Bean
        DataSource otherDataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
                    .setName("other-" + UUID.randomUUID()).build();
        }

        @Bean
        SequenceStore sequenceStore() {
            return new InMemorySequenceStore();
        }
    }

    /** The same with seqgen's registry imported, but not its Spring Data JDBC support. */
    @Configuration(proxyBeanMethods = false)
    @Import(PlainApplication.class)
    @ImportAutoConfiguration(SeqgenAutoConfiguration.class)
    static class RegistryOnlyApplication {
    }
}
