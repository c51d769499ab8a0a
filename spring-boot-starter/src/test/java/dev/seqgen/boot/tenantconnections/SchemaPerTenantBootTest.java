package dev.seqgen.boot.tenantconnections;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TenantDatabases;
import dev.seqgen.testing.TestDatabase;

import java.util.List;
import java.util.function.Function;
import javax.sql.DataSource;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A Spring Boot application whose tenants each have a schema of their own (on MariaDB, whose schemas are databases,
 * a database): a {@code MultiTenantConnectionProvider} bean setting the tenant's schema on the application's pool,
 * handed to Hibernate by a {@code HibernatePropertiesCustomizer}. With seqgen's table qualified by the application's
 * schema ({@code seqgen.table}), every tenant's counters are rows of that one table, which every tenant's connection
 * reaches; with an unqualified one, the SYNC numbers count in seqgen's table of each tenant's own schema. Each
 * tenant's invoices are numbered on their own, per year, gapless despite a rollback, above the invoices the tenant's
 * schema already holds; its ids above its own. The actuator endpoint lists the sequences numbered only in series,
 * and their series wherever they count, which the {@code seqgen.series.open} gauge counts.
 */
class SchemaPerTenantBootTest {

    private static final List<String> TENANTS = List.of("acme", "globex");

    /** Each tenant's schema, in the database of the running test. */
    private static volatile Function<String, String> schemaOf;

    static List<TestDatabase> schemaDatabases() {
        return List.of(TestDatabase.H2, TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    /** Where a schema is a database (MariaDB), {@link DatabasePerTenantBootTest} counts in the tenants' tables. */
    static List<TestDatabase> schemaOnlyDatabases() {
        return List.of(TestDatabase.H2, TestDatabase.POSTGRESQL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaDatabases")
    void eachTenantsSchemaIsNumberedOnItsOwnFromOneCentralTable(TestDatabase database) throws Exception {
        String table = TestDatabase.uniqueTable();
        String central = switch (database) {
            case H2 -> "PUBLIC";
            case MARIADB -> TenantDatabases.currentDatabase(database);
            default -> "public";
        };
        runWithTenantSchemas(database, central + "." + table, context -> {
            List<String> rows = new JdbcTemplate(context.getBean(DataSource.class)).queryForList(
                    "SELECT name FROM " + central + "." + table + " ORDER BY name", String.class);
            assertThat(rows).as("the tenants' counters, rows of the central table").contains(
                    "seqgen_own_invoice_numbers#acme/2026", "seqgen_own_invoice_numbers#globex/2026",
                    "seqgen_own_invoice_ids#acme", "seqgen_own_invoice_ids#globex");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaOnlyDatabases")
    void eachTenantsSchemaHoldsItsOwnSyncCounters(TestDatabase database) throws Exception {
        String table = TestDatabase.uniqueTable();
        runWithTenantSchemas(database, table, context -> {
            for (String tenant : TENANTS) {
                assertThat(new JdbcTemplate(context.getBean(DataSource.class)).queryForList("SELECT name FROM "
                        + schema(database, tenant) + "." + table, String.class)).as("%s's own counters", tenant)
                        .isNotEmpty().allMatch(row -> row.contains("#" + tenant + "/"));
            }
        });
    }

    /**
     * Runs the application over tenants' schemas made for the run (each with its invoice table, and seqgen's table
     * when {@code table} is unqualified, as the tenant's migrations make it): the invoices made and checked, then
     * what the endpoint and the gauge show, then {@code rows}.
     */
    private static void runWithTenantSchemas(TestDatabase database, String table,
            ContextConsumer<AssertableApplicationContext> rows) throws Exception {
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        for (String tenant : TENANTS) {
            dropSchema(database, tenant);
            TenantDatabases.execute(shared, (database == TestDatabase.MARIADB ? "CREATE DATABASE "
                    : "CREATE SCHEMA ") + schema(database, tenant));
            OwnTenants.createInvoiceTable(shared, schema(database, tenant) + ".seqgen_own_invoice",
                    tenant.equals("acme"));
            if (table.indexOf('.') < 0) {
                try (JdbcSequenceStore migrations = JdbcSequenceStore.builder(shared)
                        .table(schema(database, tenant) + "." + table).build()) {
                    migrations.createTableIfMissing();
                }
            }
        }
        try {
            schemaOf = tenant -> schema(database, tenant);
            OwnTenants.application().withUserConfiguration(SchemaPerTenantConnections.class)
                    .withPropertyValues("spring.datasource.url=" + shared.getJdbcUrl(),
                            "spring.datasource.username=" + shared.getUsername(),
                            "spring.datasource.password=" + (shared.getPassword() == null ? ""
                                    : shared.getPassword()),
                            "seqgen.table=" + table, "seqgen.schema.initialize=always",
                            "spring.jpa.hibernate.ddl-auto=none")
                    .run(context -> {
                        OwnTenants.numberedInSeriesListedBeforeAnyInvoice(context);
                        OwnTenants.invoiceAndCheck(context);
                        OwnTenants.seriesListedAndCounted(context);
                        rows.accept(context);
                    });
        } finally {
            for (String tenant : TENANTS) {
                dropSchema(database, tenant);
            }
            database.dropTable(table);
            database.dropTable(table + "_kept");
        }
    }

    /** The application's {@code MultiTenantConnectionProvider}: the tenant's schema set on the application's pool. */
    @Configuration(proxyBeanMethods = false)
    static class SchemaPerTenantConnections {

        @Bean
        MultiTenantConnectionProvider<String> tenantConnections(DataSource dataSource) {
            return new TenantDatabases.SchemaPerTenant(dataSource, tenant -> schemaOf.apply(tenant));
        }
    }

    private static String schema(TestDatabase database, String tenant) {
        return database == TestDatabase.MARIADB ? TenantDatabases.currentDatabase(database) + "_sbt_" + tenant
                : "sbt_" + tenant;
    }

    private static void dropSchema(TestDatabase database, String tenant) {
        database.execute(database == TestDatabase.MARIADB ? "DROP DATABASE IF EXISTS " + schema(database, tenant)
                : "DROP SCHEMA IF EXISTS " + schema(database, tenant) + " CASCADE");
    }
}
