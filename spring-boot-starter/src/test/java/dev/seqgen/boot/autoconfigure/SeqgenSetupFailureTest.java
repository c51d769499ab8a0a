package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.Strategy;
import dev.seqgen.boot.badannotation.BadMaxValueTicket;
import dev.seqgen.boot.badnumber.TextNumberedInvoice;
import dev.seqgen.boot.syncnumber.GaplessInvoice;
import dev.seqgen.boot.jpa.BootTicket;
import dev.seqgen.jdbc.JdbcDialect;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.env.Environment;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Set-up mistakes fail the start-up with an analysis that says what to change: a missing sequence table, a pool
 * too small for the dedicated connection, a bad value in an entity's {@code @SeqgenGenerator}.
 */
class SeqgenSetupFailureTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true");

    private final ApplicationContextRunner jpaRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                    SeqgenAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true",
                    "spring.jpa.hibernate.ddl-auto=create-drop");

    @Test
    void aMissingTableWithInitializeNeverFailsNamingTheDdlToRun() {
        contextRunner.withPropertyValues("seqgen.schema.initialize=never").run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("seqgen_sequences does not exist",
                    "seqgen.schema.initialize=never");
            assertThat(analysis.getAction()).contains(String.join("; ",
                    JdbcDialect.H2.createTablesSql("seqgen_sequences")), "seqgen.schema.initialize=always");
        });
    }

    /**
     * The table exists, but reading it fails for another reason (here: the statement is refused, as by a server
     * that answers oddly): the analysis says what the database said, keeps its error as the cause, and does not
     * claim the table is missing.
     */
    @Test
    void aTableThatCannotBeReadIsReportedWithTheDatabasesErrorAsTheCause() {
        contextRunner.withPropertyValues("seqgen.schema.initialize=never")
                .withUserConfiguration(RefusingTableReads.class).run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("could not read its sequence table seqgen_sequences",
                            "There is no result registered", "SQLSTATE HY000").doesNotContain("does not exist");
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(SQLException.class)
                            .hasMessageContaining("There is no result registered");
                });
    }

    /** An H2 database with seqgen's table, whose connections refuse the query that reads it. */
    @Configuration(proxyBeanMethods = false)
    static class RefusingTableReads {

        @Bean
        DataSource dataSource() {
            org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
            h2.setURL("jdbc:h2:mem:seqgen-refusing-" + System.identityHashCode(this) + ";DB_CLOSE_DELAY=-1");
            new JdbcTemplate(h2).execute("CREATE TABLE seqgen_sequences (name VARCHAR(64) NOT NULL PRIMARY KEY,"
                    + " next_value BIGINT NOT NULL)");
            return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                    new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                        Object result = invoke(method, h2, args);
                        return result instanceof Connection connection ? refusing(connection) : result;
                    });
        }

        private static Connection refusing(Connection connection) {
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        Object result = invoke(method, connection, args);
                        if (result instanceof Statement statement) {
                            return Proxy.newProxyInstance(Statement.class.getClassLoader(),
                                    new Class<?>[] {Statement.class}, (p, m, a) -> {
                                        if (m.getName().equals("executeQuery")
                                                && String.valueOf(a[0]).contains("seqgen_sequences")) {
                                            throw new SQLException("There is no result registered", "HY000");
                                        }
                                        return invoke(m, statement, a);
                                    });
                        }
                        return result;
                    });
        }

        private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /**
     * The missing table is the subject of the report: the table and every entity whose sequence it holds (here one),
     * what the database said, and the ways to create it under Spring Boot; no name of seqgen's own making.
     */
    @Test
    void aMissingTableUnderJpaWithoutDdlAutoFailsAtStartUpNamingTheDdlToRun() {
        jpaRunner.withUserConfiguration(Entities.class).withPropertyValues("seqgen.schema.initialize=never",
                "spring.jpa.hibernate.ddl-auto=none").run(context -> {
                    assertThat(context).hasFailed();
                    // Not a stack trace: the report Spring Boot prints, however deep Hibernate wrapped the error,
                    // with what the database said (and its error kept as the cause).
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("seqgen could not set up a generated value:\n\n"
                            + "    Where: seqgen's sequence table seqgen_sequences, used by entity "
                            + BootTicket.class.getName() + ", id property 'id', sequence 'boot_tickets'\n"
                            + "    Problem: the table could not be read in the h2 database: Table \"SEQGEN_SEQUENCES\""
                            + " not found").contains("SQLSTATE 42S04").doesNotContain("seqgen-table-probe");
                    assertThat(analysis.getAction()).isEqualTo("If the table does not exist, create it: let seqgen"
                            + " create it (seqgen.schema.initialize=always); or run "
                            + String.join("; ", JdbcDialect.H2.createTablesSql("seqgen_sequences"))
                            + " in your Flyway or Liquibase migrations.");
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(SQLException.class);
                });
    }

    @Test
    void seqgenNumberOnATextAttributeIsReportedNamingTheEntityPropertyAndTheTypesItTakes() {
        jpaRunner.withUserConfiguration(TextNumberEntities.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("Where: entity " + TextNumberedInvoice.class.getName()
                    + ", property 'number'", "Problem: @SeqgenNumber generates long/Long and int/Integer attributes,"
                    + " and String attributes with a format, not a String without one");
            assertThat(analysis.getAction()).contains("Declare the attribute long, Long, int or Integer",
                    "@SeqgenNumber(format = \"INV-{number:6}\")");
        });
    }

    @Test
    void aPropertyThatWouldWeakenASyncNumberIsReportedNamingTheAnnotationAndTheProperty() {
        jpaRunner.withUserConfiguration(GaplessEntities.class)
                .withPropertyValues("seqgen.sequences.gapless_invoice_numbers.strategy=async").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("Where: entity " + GaplessInvoice.class.getName()
                            + ", property 'number'", "Problem: @SeqgenNumber declares strategy SYNC (gapless numbers),"
                            + " and the configuration of sequence 'gapless_invoice_numbers' sets strategy=async"
                            + " (seqgen.sequences.gapless_invoice_numbers.strategy)");
                    assertThat(analysis.getAction()).contains(
                            "seqgen.sequences.gapless_invoice_numbers.allow-weaker-strategy=true");
                });
    }

    @Test
    void aPropertyThatSaysItMeansToWeakenASyncNumberApplies() {
        jpaRunner.withUserConfiguration(GaplessEntities.class)
                .withPropertyValues("seqgen.sequences.gapless_invoice_numbers.strategy=async",
                        "seqgen.sequences.gapless_invoice_numbers.allow-weaker-strategy=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.settingsFor("gapless_invoice_numbers").strategy()).isEqualTo(Strategy.ASYNC);
                });
    }

    @Test
    void aPropertyThatStrengthensToSyncNeedsNoPermission() {
        jpaRunner.withUserConfiguration(GaplessEntities.class)
                .withPropertyValues("seqgen.sequences.gapless_invoice_ids.strategy=sync").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SequenceRegistry.class).settingsFor("gapless_invoice_ids").strategy())
                            .isEqualTo(Strategy.SYNC);
                });
    }

    @Test
    void aTableCreatedByTheApplicationIsAcceptedWithInitializeNever() {
        contextRunner.withPropertyValues("seqgen.schema.initialize=never")
                .withUserConfiguration(ApplicationSchema.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
                });
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void aSchemaWithoutTheTableOfKeptRangesStartsWithAWarningNamingItsDdl(CapturedOutput output) {
        contextRunner.withPropertyValues("seqgen.schema.initialize=never")
                .withUserConfiguration(ApplicationSchema.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(output).contains("seqgen's table of kept ranges seqgen_sequences_kept does not exist")
                            .contains(JdbcDialect.H2.createTablesSql("seqgen_sequences").get(1));
                });
    }

    @Test
    void aPoolOfOneConnectionWithTheDedicatedConnectionFailsAtStartUpNamingBothProperties() {
        jpaRunner.withUserConfiguration(Entities.class)
                .withPropertyValues("spring.datasource.hikari.maximum-pool-size=1",
                        "spring.datasource.hikari.connection-timeout=250")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("spring.datasource.hikari.maximum-pool-size=1",
                            "seqgen.jdbc.dedicated-connection=true");
                    assertThat(analysis.getAction()).contains("spring.datasource.hikari.maximum-pool-size",
                            "seqgen.jdbc.dedicated-connection=false");
                });
    }

    @Test
    void aPoolOfOneConnectionStartsWithoutTheDedicatedConnection() {
        contextRunner.withPropertyValues("spring.datasource.hikari.maximum-pool-size=1",
                "seqgen.jdbc.dedicated-connection=false").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(SequenceRegistry.class).sequence("orders").next()).isEqualTo(1);
                });
    }

    @Test
    void aBadValueInAnAnnotationAttributeIsReportedAsCodeWithTheEntityPropertyAndAttribute() {
        jpaRunner.withUserConfiguration(BadAnnotationEntities.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("in code", BadMaxValueTicket.class.getSimpleName(),
                    "Id property: id", "Sequence: bad_tickets", "@SeqgenGenerator(maxValue)", "Value: \"0\"");
            assertThat(analysis.getAction()).contains("maxValue attribute of @SeqgenGenerator", "source code",
                    "seqgen.sequences.bad_tickets.max-value").doesNotContain("Update your application's configuration");
        });
    }

    /**
     * A check seqgen makes when the session factory starts (not while Hibernate reads the mappings): the database
     * sequence behind seqgen's pooled optimizer steps by 10 where the id says 50. Reported like the mapping errors,
     * with the entity and sequence, the two increments and the setting that accepts the database's.
     */
    @Test
    void aPooledSequenceThatStepsByAnotherIncrementIsReportedNamingTheEntitySequenceAndSetting() {
        jpaRunner.withUserConfiguration(PooledEntities.class, SequenceSteppingBy10.class).withPropertyValues(
                "spring.jpa.hibernate.ddl-auto=none",
                "spring.jpa.properties.hibernate.id.optimizer.pooled.preferred="
                        + dev.seqgen.hibernate.SeqgenPooledOptimizer.class.getName()).run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("seqgen could not set up a generated value",
                            "Where: entity " + dev.seqgen.boot.pooled.PooledTicket.class.getName(),
                            "pooled_ticket_seq", "steps by 10 but the id's allocationSize is 50");
                    assertThat(analysis.getAction()).contains("hibernate.id.sequence.increment_size_mismatch_strategy"
                            + "=fix");
                });
    }

    /** An H2 database whose sequence for {@code PooledTicket} steps by 10. */
    @Configuration(proxyBeanMethods = false)
    static class SequenceSteppingBy10 {

        @Bean
        DataSource dataSource() {
            org.h2.jdbcx.JdbcDataSource h2 = new org.h2.jdbcx.JdbcDataSource();
            h2.setURL("jdbc:h2:mem:seqgen-pooled-" + System.identityHashCode(this) + ";DB_CLOSE_DELAY=-1");
            JdbcTemplate jdbc = new JdbcTemplate(h2);
            jdbc.execute("CREATE SEQUENCE pooled_ticket_seq START WITH 1 INCREMENT BY 10");
            jdbc.execute("CREATE TABLE pooled_ticket (id BIGINT NOT NULL PRIMARY KEY)");
            return h2;
        }
    }

    @AutoConfigurationPackage(basePackageClasses = dev.seqgen.boot.pooled.PooledTicket.class)
    static class PooledEntities {
    }

    /** As Spring Boot does on a failed start: every registered analyzer, the first analysis wins. */
    static FailureAnalysis analyze(Throwable failure) {
        Environment environment = new StandardEnvironment();
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
                .load(FailureAnalyzer.class, ArgumentResolver.of(Environment.class, environment),
                        (factoryType, factoryImplementationName, unavailable) -> { });
        assertThat(analyzers).hasAtLeastOneElementOfType(SeqgenSetupFailureAnalyzer.class);
        return analyzers.stream()
                .map(analyzer -> analyzer.analyze(failure))
                .filter(java.util.Objects::nonNull)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no failure analysis", failure));
    }

    /** Every message of a failure's cause chain. */
    static final class HibernateMessages {
        static String of(Throwable failure) {
            StringBuilder messages = new StringBuilder();
            for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                messages.append(cause.getMessage()).append('\n');
            }
            return messages.toString();
        }
    }

    static class ApplicationSchema {

        @Bean
        InitializingBean applicationSchema(DataSource dataSource) {
            return () -> new JdbcTemplate(dataSource).execute(
                    "CREATE TABLE seqgen_sequences (name VARCHAR(64) PRIMARY KEY, next_value BIGINT NOT NULL)");
        }
    }

    @AutoConfigurationPackage(basePackageClasses = BootTicket.class)
    static class Entities {
    }

    @AutoConfigurationPackage(basePackageClasses = BadMaxValueTicket.class)
    static class BadAnnotationEntities {
    }

    @AutoConfigurationPackage(basePackageClasses = TextNumberedInvoice.class)
    static class TextNumberEntities {
    }

    @AutoConfigurationPackage(basePackageClasses = GaplessInvoice.class)
    static class GaplessEntities {
    }
}
