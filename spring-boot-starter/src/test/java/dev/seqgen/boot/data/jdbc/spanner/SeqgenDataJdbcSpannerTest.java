package dev.seqgen.boot.data.jdbc.spanner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import com.google.cloud.spanner.Dialect;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcInvoice;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcInvoiceRepository;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.testing.TestDatabase;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.jdbc.core.dialect.JdbcPostgresDialect;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring Data JDBC aggregates in Cloud Spanner (the emulator; skipped without {@code SPANNER_EMULATOR_HOST}, failed
 * when {@code SEQGENTEST_REQUIRE_DATABASES=true}), reached through Spanner's JDBC driver, with seqgen's JDBC store in
 * the same database: ids from the default strategy, gapless SYNC numbers in Spring's transaction despite a rollback,
 * {@code saveAll} numbered in one increment. On a GoogleSQL and on a PostgreSQL-dialect database; Spring Data JDBC
 * needs a dialect bean on both ({@link GoogleSqlDialect}, Spring Data's own {@link JdbcPostgresDialect}).
 */
class SeqgenDataJdbcSpannerTest {

    private static final String INVOICE_NUMBERS = "seqgen_jdbc_invoice_number";

    @RegisterExtension
    static final SpannerEmulator googleSql = new SpannerEmulator(
            "CREATE TABLE seqgen_jdbc_invoice (id INT64 NOT NULL, number INT64 NOT NULL, customer STRING(100))"
                    + " PRIMARY KEY (id)",
            "CREATE UNIQUE INDEX seqgen_jdbc_invoice_by_number ON seqgen_jdbc_invoice (number)");

    @RegisterExtension
    static final SpannerEmulator postgresql = new SpannerEmulator(Dialect.POSTGRESQL,
            "CREATE TABLE seqgen_jdbc_invoice (id bigint NOT NULL, number bigint NOT NULL, customer varchar(100),"
                    + " PRIMARY KEY (id))",
            "CREATE UNIQUE INDEX seqgen_jdbc_invoice_by_number ON seqgen_jdbc_invoice (number)");

    /**
     * A Spanner database of one dialect, the Spring Data JDBC dialect the application declares for it (none where
     * Spring Data detects one) and the dialect Spring Data JDBC then uses.
     */
    record SpannerDatabase(String name, SpannerEmulator emulator, @Nullable JdbcDialect declared,
            Class<? extends JdbcDialect> used) {

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<SpannerDatabase> databases() {
        return Stream.of(new SpannerDatabase("GoogleSQL", googleSql, GoogleSqlDialect.INSTANCE, GoogleSqlDialect.class),
                new SpannerDatabase("PostgreSQL dialect", postgresql, null, JdbcPostgresDialect.class));
    }

    private static ApplicationContextRunner contextRunner(SpannerEmulator emulator) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                        TransactionAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class,
                        SeqgenAutoConfiguration.class, SeqgenDataJdbcAutoConfiguration.class))
                .withUserConfiguration(Aggregates.class)
                .withPropertyValues("spring.datasource.url=jdbc:cloudspanner://" + emulator.host() + "/projects/"
                        + SpannerEmulator.PROJECT + "/instances/" + emulator.instanceId() + "/databases/"
                        + emulator.databaseId() + "?autoConfigEmulator=true",
                        "spring.datasource.driver-class-name=com.google.cloud.spanner.jdbc.JdbcDriver",
                        "seqgen.schema.initialize=always",
                        "seqgen.defaults.acquire-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                        "seqgen.table=" + TestDatabase.uniqueTable());
    }

    @Test
    void withoutADialectBeanSpringDataJdbcCannotStartOnAGoogleSqlDatabase() {
        contextRunner(googleSql).run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageContaining("Cannot determine a dialect"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    void aggregatesGetIdsAndGaplessNumbersInSpringsTransaction(SpannerDatabase database) {
        ApplicationContextRunner contextRunner = contextRunner(database.emulator());
        if (database.declared() != null) {
            contextRunner = contextRunner.withBean(JdbcDialect.class, database::declared);
        }
        contextRunner
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(JdbcDialect.class)).isInstanceOf(database.used());
                    assertThat(context.getBean(SequenceRegistry.class).store()).as("seqgen's table store in Spanner")
                            .isInstanceOf(JdbcSequenceStore.class);
                    SeqgenJdbcInvoiceRepository invoices = context.getBean(SeqgenJdbcInvoiceRepository.class);

                    List<SeqgenJdbcInvoice> saved = new ArrayList<>(inTransaction(context, false,
                            () -> List.of(invoices.save(new SeqgenJdbcInvoice("ada")),
                                    invoices.save(new SeqgenJdbcInvoice("grace")))));
                    inTransaction(context, true, () -> invoices.save(new SeqgenJdbcInvoice("rolled back")));
                    saved.add(inTransaction(context, false, () -> invoices.save(new SeqgenJdbcInvoice("edsger"))));
                    assertThat(saved).extracting(SeqgenJdbcInvoice::getNumber)
                            .as("gapless: the rolled-back number is taken again").containsExactly(1L, 2L, 3L);
                    assertThat(saved).extracting(SeqgenJdbcInvoice::getId).doesNotContainNull()
                            .doesNotHaveDuplicates();

                    SeqgenJdbcInvoice first = saved.get(0);
                    first.setCustomer("ada lovelace");
                    SeqgenJdbcInvoice updated = inTransaction(context, false, () -> invoices.save(first));
                    assertThat(updated.getId()).isEqualTo(first.getId());
                    assertThat(invoices.findById(first.getId()).orElseThrow())
                            .extracting(SeqgenJdbcInvoice::getCustomer, SeqgenJdbcInvoice::getNumber)
                            .containsExactly("ada lovelace", 1L);

                    long before = opened(context, INVOICE_NUMBERS).stats().reservations();
                    List<SeqgenJdbcInvoice> many = inTransaction(context, false, () -> invoices.saveAll(
                            IntStream.range(0, 20).mapToObj(i -> new SeqgenJdbcInvoice("c" + i)).toList()));
                    assertThat(many).extracting(SeqgenJdbcInvoice::getNumber)
                            .containsExactlyElementsOf(LongStream.rangeClosed(4, 23).boxed().toList());
                    assertThat(opened(context, INVOICE_NUMBERS).stats().reservations() - before)
                            .as("one increment for the numbers of the saveAll").isEqualTo(1);

                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    assertThat(jdbc.queryForList("SELECT number FROM seqgen_jdbc_invoice ORDER BY number",
                            Long.class)).containsExactlyElementsOf(LongStream.rangeClosed(1, 23).boxed().toList());
                });
    }

    /**
     * Runs the work in a transaction, committed or rolled back; an aborted one (the emulator runs one read-write
     * transaction at a time) is retried, as an application on Spanner retries, with new aggregates.
     */
    private static <T> T inTransaction(AssertableApplicationContext context, boolean rollback, Supplier<T> work) {
        TransactionTemplate transactions = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        return SpannerEmulator.retryingAborted(() -> transactions.execute(status -> {
            T result = work.get();
            if (rollback) {
                status.setRollbackOnly();
            }
            return result;
        }));
    }

    /** The sequence the callback opened. */
    private static Sequence opened(AssertableApplicationContext context, String name) {
        return context.getBean(SequenceRegistry.class).sequences().stream()
                .filter(sequence -> sequence.name().equals(name)).findFirst().orElseThrow();
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SeqgenJdbcInvoice.class)
    static class Aggregates {
    }
}
