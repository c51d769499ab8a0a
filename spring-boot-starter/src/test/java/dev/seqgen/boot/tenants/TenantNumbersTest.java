package dev.seqgen.boot.tenants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.testing.TestDatabase;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.cfg.MultiTenancySettings;
import org.hibernate.context.spi.CurrentTenantIdentifierResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.DefaultApplicationArguments;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernatePropertiesCustomizer;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A Spring Boot application with Hibernate's partitioned multi-tenancy ({@code @TenantId}, a tenant resolver handed
 * over by a {@code HibernatePropertiesCustomizer}), on each database: every tenant's invoices are numbered on their
 * own, per year of the invoice's date, gapless despite rollbacks, continuing above the invoices a tenant already has
 * (Spring Boot's column names, snake_case), ids unique across tenants.
 */
class TenantNumbersTest {

    private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                    SeqgenAutoConfiguration.class))
            .withUserConfiguration(Tenants.class);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void eachTenantIsNumberedOnItsOwnPerYear(TestDatabase database) {
        numbersEachTenantOnItsOwnPerYear(database);
    }

    /**
     * The same with auto-commit off in the pool and Hibernate told so, as docs/multi-tenancy.md suggests for MariaDB:
     * the schema initializer, the adoption of the existing invoice and the SYNC increments commit as before.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void eachTenantIsNumberedOnItsOwnWithAutoCommitOffInThePool(TestDatabase database) {
        numbersEachTenantOnItsOwnPerYear(database, "spring.datasource.hikari.auto-commit=false",
                "spring.jpa.properties.hibernate.connection.provider_disables_autocommit=true");
    }

    private void numbersEachTenantOnItsOwnPerYear(TestDatabase database, String... properties) {
        String table = TestDatabase.uniqueTable();
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        contextRunner.withPropertyValues("spring.datasource.url=" + shared.getJdbcUrl(),
                "spring.datasource.username=" + shared.getUsername(),
                "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()),
                "seqgen.table=" + table, "seqgen.schema.initialize=always",
                "spring.jpa.hibernate.ddl-auto=create-drop").withPropertyValues(properties).run(context -> {
                    try {
                        assertThat(context).hasNotFailed();
                        new TransactionTemplate(context.getBean(PlatformTransactionManager.class))
                                .executeWithoutResult(status -> new JdbcTemplate(context.getBean(
                                        javax.sql.DataSource.class)).update("INSERT INTO seqgen_tenant_invoice (id,"
                                        + " tenant, issue_date, number, code) VALUES (900001, 'acme', ?, 41,"
                                        + " 'acme-2026-0041')", LocalDate.of(2026, 1, 5)));

                        List<TenantInvoice> acme = new ArrayList<>();
                        List<TenantInvoice> globex = new ArrayList<>();
                        acme.addAll(persist(context, "acme", false, LocalDate.of(2026, 2, 1), LocalDate.of(2025, 12,
                                31)));
                        globex.addAll(persist(context, "globex", false, LocalDate.of(2026, 2, 1)));
                        persist(context, "acme", true, LocalDate.of(2026, 2, 2));
                        acme.addAll(persist(context, "acme", false, LocalDate.of(2026, 2, 3)));
                        globex.addAll(persist(context, "globex", false, LocalDate.of(2026, 3, 1)));

                        assertThat(acme).extracting(TenantInvoice::getNumber).as("above acme's 41; 2025 apart;"
                                + " the rolled-back number used again").containsExactly(42L, 1L, 43L);
                        assertThat(acme).extracting(TenantInvoice::getCode)
                                .containsExactly("acme-2026-0042", "acme-2025-0001", "acme-2026-0043");
                        assertThat(globex).extracting(TenantInvoice::getNumber).containsExactly(1L, 2L);
                        assertThat(globex).extracting(TenantInvoice::getCode)
                                .containsExactly("globex-2026-0001", "globex-2026-0002");
                        List<Long> ids = new ArrayList<>();
                        acme.forEach(invoice -> ids.add(invoice.getId()));
                        globex.forEach(invoice -> ids.add(invoice.getId()));
                        assertThat(ids).doesNotHaveDuplicates();
                    } finally {
                        TENANT.remove();
                    }
                });
        database.dropTable(table);
    }

    /**
     * Known tenants' series under {@code seqgen.series.warm-up}, with invoices in the table before the start-up: the
     * warm-up opens them before the application reports itself ready, each above its tenant's invoices of that year
     * (the formatted codes read back with their pattern), and the first invoices continue there, with no other row or
     * number made.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theWarmUpOpensTheListedSeriesAboveTheirInvoicesBeforeReadiness(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        ApplicationContextRunner runner = contextRunner.withPropertyValues(
                "spring.datasource.url=" + shared.getJdbcUrl(), "spring.datasource.username=" + shared.getUsername(),
                "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()),
                "seqgen.table=" + table, "seqgen.schema.initialize=always");
        try {
            runner.withPropertyValues("spring.jpa.hibernate.ddl-auto=create").run(context -> {
                assertThat(context).hasNotFailed();
                JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
                String insert = "INSERT INTO seqgen_tenant_invoice (id, tenant, issue_date, number, code) VALUES"
                        + " (?, ?, ?, ?, ?)";
                jdbc.update(insert, 900001, "acme", LocalDate.of(2026, 1, 5), 41, "acme-2026-0041");
                jdbc.update(insert, 900002, "acme", LocalDate.of(2025, 6, 1), 90, "acme-2025-0090");
                jdbc.update(insert, 900003, "globex", LocalDate.of(2026, 2, 1), 12, "globex-2026-0050");
            });
            runner.withPropertyValues("spring.jpa.hibernate.ddl-auto=none",
                    "seqgen.series.warm-up.seqgen_tenant_invoice_numbers=acme/2026,globex/2026",
                    "seqgen.series.warm-up.seqgen_tenant_invoice_codes=acme/2026,globex/2026").run(context -> {
                        try {
                            assertThat(context).hasNotFailed();
                            SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                            assertThat(registry.seriesIfOpen("seqgen_tenant_invoice_numbers", "acme/2026"))
                                    .as("not before the runners").isNull();
                            runRunners(context);

                            for (String sequence : List.of("seqgen_tenant_invoice_numbers",
                                    "seqgen_tenant_invoice_codes")) {
                                assertThat(registry.openSeries(sequence)).as(sequence)
                                        .containsOnlyKeys("acme/2026", "globex/2026");
                            }
                            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(javax.sql.DataSource.class));
                            assertThat(nextValues(jdbc, table)).as("above the invoices of each series, before the"
                                    + " first insert; no series of 2025").containsExactly(
                                            "seqgen_tenant_invoice_codes#acme/2026=42",
                                            "seqgen_tenant_invoice_codes#globex/2026=51",
                                            "seqgen_tenant_invoice_numbers#acme/2026=42",
                                            "seqgen_tenant_invoice_numbers#globex/2026=13");

                            TenantInvoice acme = persist(context, "acme", false, LocalDate.of(2026, 4, 1)).get(0);
                            TenantInvoice globex = persist(context, "globex", false, LocalDate.of(2026, 4, 1)).get(0);
                            assertThat(List.of(acme.getNumber(), globex.getNumber())).containsExactly(42L, 13L);
                            assertThat(List.of(acme.getCode(), globex.getCode()))
                                    .containsExactly("acme-2026-0042", "globex-2026-0051");
                            assertThat(nextValues(jdbc, table)).containsExactly(
                                    "seqgen_tenant_invoice_codes#acme/2026=43",
                                    "seqgen_tenant_invoice_codes#globex/2026=52",
                                    "seqgen_tenant_invoice_numbers#acme/2026=43",
                                    "seqgen_tenant_invoice_numbers#globex/2026=14");
                            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM seqgen_tenant_invoice", Long.class))
                                    .isEqualTo(3 + 2);
                        } finally {
                            TENANT.remove();
                        }
                    });
        } finally {
            database.dropTable("seqgen_tenant_invoice");
            database.dropTable(table);
            database.dropTable(table + "_kept");
        }
    }

    /**
     * A key that is not one of the sequence's series, or a sequence nothing numbers: the start-up fails naming the
     * property and the key; so does an invalid key of a sequence of the plain API.
     */
    @Test
    void aWarmUpKeyThatIsNotOneOfTheSeriesOrAnUnknownSequenceFailsTheStartUp() {
        ApplicationContextRunner runner = contextRunner.withPropertyValues(
                "spring.datasource.generate-unique-name=true", "spring.jpa.hibernate.ddl-auto=create-drop");
        runner.withPropertyValues("seqgen.series.warm-up.seqgen_tenant_invoice_numbers=acme/2026,acme").run(
                context -> assertThatThrownBy(() -> runRunners(context)).hasMessageContainingAll(
                        "seqgen.series.warm-up.seqgen_tenant_invoice_numbers", "'acme'",
                        "sequence 'seqgen_tenant_invoice_numbers'", "tenant/issueDate:year", "it has 1 part"));
        runner.withPropertyValues("seqgen.series.warm-up.seqgen_tenant_invoice_number=acme/2026").run(
                context -> assertThatThrownBy(() -> runRunners(context)).hasMessageContainingAll(
                        "seqgen.series.warm-up.seqgen_tenant_invoice_number", "acme/2026",
                        "sequence 'seqgen_tenant_invoice_number' is neither"));
        runner.withPropertyValues("seqgen.sequences.invoices.strategy=batch",
                "seqgen.series.warm-up.invoices=acme//2026").run(context -> assertThatThrownBy(() -> runRunners(
                        context)).hasMessageContainingAll("seqgen.series.warm-up.invoices", "'acme//2026'",
                                "sequence 'invoices'", "a part is empty"));
    }

    private static void runRunners(AssertableApplicationContext context) throws Exception {
        for (ApplicationRunner runner : context.getBeansOfType(ApplicationRunner.class).values()) {
            runner.run(new DefaultApplicationArguments());
        }
    }

    /** The series rows of the invoices' number sequences, as {@code name=next_value}, by name. */
    private static List<String> nextValues(JdbcTemplate jdbc, String table) {
        return jdbc.queryForList("SELECT name, next_value FROM " + table + " WHERE name LIKE"
                + " 'seqgen_tenant_invoice_%#%' AND name NOT LIKE 'seqgen_tenant_invoice_ids%' ORDER BY name").stream()
                .map(row -> row.get("name") + "=" + ((Number) row.get("next_value")).longValue()).toList();
    }

    private static List<TenantInvoice> persist(AssertableApplicationContext context, String tenant, boolean rollBack,
            LocalDate... dates) {
        TENANT.set(tenant);
        EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
        TransactionTemplate transaction = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        List<TenantInvoice> invoices = new ArrayList<>();
        transaction.executeWithoutResult(status -> {
            EntityManager entityManager = EntityManagerFactoryUtils.getTransactionalEntityManager(factory);
            for (LocalDate date : dates) {
                TenantInvoice invoice = new TenantInvoice(date);
                entityManager.persist(invoice);
                invoices.add(invoice);
            }
            entityManager.flush();
            if (rollBack) {
                status.setRollbackOnly();
            }
        });
        return invoices;
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = TenantInvoice.class)
    static class Tenants {

        @Bean
        HibernatePropertiesCustomizer tenantResolver() {
            return properties -> properties.put(MultiTenancySettings.MULTI_TENANT_IDENTIFIER_RESOLVER,
                    new CurrentTenantIdentifierResolver<String>() {

                        @Override
                        public String resolveCurrentTenantIdentifier() {
                            String tenant = TENANT.get();
                            return tenant == null ? "none" : tenant;
                        }

                        @Override
                        public boolean validateExistingCurrentSessions() {
                            return false;
                        }
                    });
        }
    }
}
