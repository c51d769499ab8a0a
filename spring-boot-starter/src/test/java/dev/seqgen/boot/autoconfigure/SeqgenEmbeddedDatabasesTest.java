package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The three databases Spring Boot calls embedded: H2 and HSQLDB get seqgen's table from their scripts with the
 * default {@code seqgen.schema.initialize=embedded}; Apache Derby, retired and deprecated in Spring Boot 4.1,
 * is refused first, with the advice, before any script is looked for.
 */
class SeqgenEmbeddedDatabasesTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class));

    @Test
    void hsqldbGetsItsTableFromItsScriptAndServesValues() {
        contextRunner.withPropertyValues("spring.datasource.url=jdbc:hsqldb:mem:seqgen-boot-hsqldb",
                "spring.datasource.username=SA").run(context -> {
                    assertThat(context).hasNotFailed();
                    Sequence orders = context.getBean(SequenceRegistry.class).sequence("orders");
                    assertThat(LongStream.range(0, 5).map(i -> orders.next()).toArray()).containsExactly(1, 2, 3, 4, 5);
                    assertThat(context.getBean(SequenceRegistry.class).store().name()).isEqualTo("hsqldb");
                    assertThat(new JdbcTemplate(context.getBean(javax.sql.DataSource.class)).queryForObject(
                            "SELECT COUNT(*) FROM seqgen_sequences WHERE name = 'orders'", Integer.class)).isEqualTo(1);
                });
    }

    @Test
    void apacheDerbyIsRefusedFirstWithTheAdviceNotWithAMissingScript() {
        contextRunner.withPropertyValues("spring.datasource.url=jdbc:derby:memory:seqgen-boot-derby;create=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = SeqgenSetupFailureTest.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("Apache Derby", "retired", "H2 or HSQLDB",
                            "supported: PostgreSQL").doesNotContain("schema");
                    assertThat(analysis.getAction()).contains("seqgen.enabled=false");
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("Apache Derby")
                            .hasStackTraceContaining("JdbcDialect.forProductName");
                });
    }
}
