package dev.seqgen.boot.tenantconnections;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.testing.TenantDatabases;
import dev.seqgen.testing.TestDatabase;

import java.util.List;
import java.util.function.Function;
import javax.sql.DataSource;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A Spring Boot application whose tenants each have a schema of their own (on MariaDB, whose schemas are databases,
 * a database): a {@code MultiTenantConnectionProvider} bean setting the tenant's schema on the application's pool,
 * handed to Hibernate by a {@code HibernatePropertiesCustomizer}, and seqgen's table qualified by the application's
 * schema ({@code seqgen.table}), so that every tenant's counters are rows of that one table, which every tenant's
 * connection reaches. Each tenant's invoices are numbered on their own, per year, gapless despite a rollback, above
 * the invoices the tenant's schema already holds; its ids above its own. The actuator endpoint lists the sequences
 * numbered only in series, and their series, which the {@code seqgen.series.open} gauge counts.
 */
class SchemaPerTenantBootTest {

    private static final List<String> TENANTS = List.of("acme", "globex");

    /** Each tenant's schema, in the database of the running test. */
    private static volatile Function<String, String> schemaOf;

    static List<TestDatabase> schemaDatabases() {
        return List.of(TestDatabase.H2, TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
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
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        for (String tenant : TENANTS) {
            dropSchema(database, tenant);
            TenantDatabases.execute(shared, (database == TestDatabase.MARIADB ? "CREATE DATABASE "
                    : "CREATE SCHEMA ") + schema(database, tenant));
            OwnTenants.createInvoiceTable(shared, schema(database, tenant) + ".seqgen_own_invoice",
                    tenant.equals("acme"));
        }
        try {
            schemaOf = tenant -> schema(database, tenant);
            OwnTenants.application().withUserConfiguration(SchemaPerTenantConnections.class)
                    .withPropertyValues("spring.datasource.url=" + shared.getJdbcUrl(),
                            "spring.datasource.username=" + shared.getUsername(),
                            "spring.datasource.password=" + (shared.getPassword() == null ? ""
                                    : shared.getPassword()),
                            "seqgen.table=" + central + "." + table, "seqgen.schema.initialize=always",
                            "spring.jpa.hibernate.ddl-auto=none")
                    .run(context -> {
                        OwnTenants.numberedInSeriesListedBeforeAnyInvoice(context);
                        OwnTenants.invoiceAndCheck(context);
                        OwnTenants.seriesListedAndCounted(context);
                        List<String> rows = new JdbcTemplate(context.getBean(DataSource.class)).queryForList(
                                "SELECT name FROM " + central + "." + table + " ORDER BY name", String.class);
                        assertThat(rows).as("the tenants' counters, rows of the central table").contains(
                                "seqgen_own_invoice_numbers#acme/2026", "seqgen_own_invoice_numbers#globex/2026",
                                "seqgen_own_invoice_ids#acme", "seqgen_own_invoice_ids#globex");
                    });
        } finally {
            for (String tenant : TENANTS) {
                dropSchema(database, tenant);
            }
            database.dropTable(central + "." + table);
            database.dropTable(central + "." + table + "_kept");
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
