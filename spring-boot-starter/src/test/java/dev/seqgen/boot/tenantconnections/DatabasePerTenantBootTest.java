package dev.seqgen.boot.tenantconnections;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TenantDatabases;
import dev.seqgen.testing.TestDatabase;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A Spring Boot application whose tenants each have a database of their own: a {@code MultiTenantConnectionProvider}
 * bean handing out connections of a pool on the tenant's database, handed to Hibernate by a
 * {@code HibernatePropertiesCustomizer}, and seqgen's table not qualified ({@code seqgen.table}), so that each
 * tenant's SYNC numbers count in seqgen's table of the tenant's own database, which its migrations created, even on
 * PostgreSQL, where a tenant's connection cannot reach another database. Each tenant's invoices are numbered on
 * their own, per year, gapless despite a rollback, above the invoices its database already holds; its ids (counted
 * in the application's table) above its own. The actuator endpoint lists the series counted in the tenants' databases
 * beside the application's, and the {@code seqgen.series.open} gauge of each sequence counts them.
 */
class DatabasePerTenantBootTest {

    private static final List<String> TENANTS = List.of("acme", "globex");

    /** The tenants' pools of the running test. */
    private static volatile Map<String, DataSource> tenantPools;

    static List<TestDatabase> serverDatabases() {
        return List.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverDatabases")
    void eachTenantsDatabaseHoldsItsOwnGaplessCounters(TestDatabase database) throws Exception {
        String table = TestDatabase.uniqueTable();
        Map<String, HikariDataSource> pools = new LinkedHashMap<>();
        try {
            for (String tenant : TENANTS) {
                HikariDataSource pool = TenantDatabases.pool(database, TenantDatabases.database(database,
                        "dpt_" + tenant), 4);
                pools.put(tenant, pool);
                OwnTenants.createInvoiceTable(pool, "seqgen_own_invoice", tenant.equals("acme"));
                try (JdbcSequenceStore migrations = JdbcSequenceStore.builder(pool).table(table).build()) {
                    migrations.createTableIfMissing();
                }
            }
            tenantPools = Map.copyOf(pools);
            HikariDataSource shared = (HikariDataSource) database.dataSource();
            OwnTenants.application().withUserConfiguration(DatabasePerTenantConnections.class)
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
                        for (String tenant : TENANTS) {
                            assertThat(new JdbcTemplate(pools.get(tenant)).queryForList("SELECT name FROM " + table
                                    + " ORDER BY name", String.class)).as("%s's own counters", tenant)
                                    .allMatch(row -> row.contains("#" + tenant + "/"))
                                    .contains("seqgen_own_invoice_numbers#" + tenant + "/2026");
                        }
                        assertThat(new JdbcTemplate(context.getBean(DataSource.class)).queryForList("SELECT name"
                                + " FROM " + table, String.class)).as("the application's table counts the ids")
                                .contains("seqgen_own_invoice_ids#acme", "seqgen_own_invoice_ids#globex")
                                .noneMatch(row -> row.startsWith("seqgen_own_invoice_numbers#"));
                    });
        } finally {
            for (HikariDataSource pool : pools.values()) {
                TenantDatabases.execute(pool, "DROP TABLE IF EXISTS seqgen_own_invoice", "DROP TABLE IF EXISTS "
                        + table, "DROP TABLE IF EXISTS " + table + "_kept");
                pool.close();
            }
            database.dropTable(table);
            database.dropTable(table + "_kept");
        }
    }

    /** The application's {@code MultiTenantConnectionProvider}: each tenant's pool, the application's for the rest. */
    @Configuration(proxyBeanMethods = false)
    static class DatabasePerTenantConnections {

        @Bean
        MultiTenantConnectionProvider<String> tenantConnections(DataSource dataSource) {
            return new TenantDatabases.DatabasePerTenant(dataSource, tenantPools);
        }
    }
}
