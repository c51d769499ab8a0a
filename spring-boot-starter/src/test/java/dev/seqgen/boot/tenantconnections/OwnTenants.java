package dev.seqgen.boot.tenantconnections;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.hibernate.cfg.MultiTenancySettings;
import org.hibernate.context.spi.CurrentTenantIdentifierResolver;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
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
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the Spring Boot tests of tenants with schemas or databases of their own share: the application (its
 * {@code MultiTenantConnectionProvider} bean and tenant resolver handed to Hibernate by a
 * {@code HibernatePropertiesCustomizer}), the tenant's table as its migrations would make it, and the run of
 * invoices both tests make and check.
 */
final class OwnTenants {

    /** The tenant of the current thread's transactions. */
    static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    private OwnTenants() {
    }

    /** The application, with the auto-configurations it uses; the test adds a MultiTenantConnectionProvider bean. */
    static ApplicationContextRunner application() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                        SeqgenAutoConfiguration.class))
                .withUserConfiguration(Tenants.class);
    }

    /** The invoice table of one tenant, with the invoice acme-2026-0041 when {@code invoice41} is true. */
    static void createInvoiceTable(DataSource tenant, String qualified, boolean invoice41) throws SQLException {
        try (Connection connection = tenant.getConnection()) {
            connection.setAutoCommit(true);
            connection.createStatement().execute("DROP TABLE IF EXISTS " + qualified);
            connection.createStatement().execute("CREATE TABLE " + qualified + " (id BIGINT PRIMARY KEY, issue_date"
                    + " DATE NOT NULL, number BIGINT NOT NULL, code VARCHAR(40) NOT NULL)");
            if (invoice41) {
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + qualified
                        + " (id, issue_date, number, code) VALUES (900001, ?, 41, 'acme-2026-0041')")) {
                    insert.setObject(1, LocalDate.of(2026, 1, 5));
                    insert.executeUpdate();
                }
            }
        }
    }

    /**
     * Invoices of two tenants, one rolled back, and what they must be: acme continues above its invoice 41 in 2026
     * and starts 2025 at 1, the rolled-back number is used again, globex counts from 1; ids are unique per tenant,
     * acme's above its invoice's id.
     */
    static void invoiceAndCheck(AssertableApplicationContext context) {
        try {
            assertThat(context).hasNotFailed();
            List<OwnInvoice> acme = new ArrayList<>();
            List<OwnInvoice> globex = new ArrayList<>();
            acme.addAll(persist(context, "acme", false, LocalDate.of(2026, 2, 1), LocalDate.of(2025, 12, 31)));
            globex.addAll(persist(context, "globex", false, LocalDate.of(2026, 2, 1)));
            persist(context, "acme", true, LocalDate.of(2026, 2, 2));
            acme.addAll(persist(context, "acme", false, LocalDate.of(2026, 2, 3)));
            globex.addAll(persist(context, "globex", false, LocalDate.of(2026, 3, 1)));

            assertThat(acme).extracting(OwnInvoice::getNumber).as("above acme's 41; 2025 apart; the rolled-back"
                    + " number used again").containsExactly(42L, 1L, 43L);
            assertThat(acme).extracting(OwnInvoice::getCode)
                    .containsExactly("acme-2026-0042", "acme-2025-0001", "acme-2026-0043");
            assertThat(acme).extracting(OwnInvoice::getId).as("above acme's invoice").allMatch(id -> id > 900001)
                    .doesNotHaveDuplicates();
            assertThat(globex).extracting(OwnInvoice::getNumber).containsExactly(1L, 2L);
            assertThat(globex).extracting(OwnInvoice::getCode).containsExactly("globex-2026-0001", "globex-2026-0002");
            assertThat(globex).extracting(OwnInvoice::getId).doesNotHaveDuplicates();
        } finally {
            TENANT.remove();
        }
    }

    private static List<OwnInvoice> persist(AssertableApplicationContext context, String tenant, boolean rollBack,
            LocalDate... dates) {
        TENANT.set(tenant);
        EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
        TransactionTemplate transaction = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        List<OwnInvoice> invoices = new ArrayList<>();
        transaction.executeWithoutResult(status -> {
            EntityManager entityManager = EntityManagerFactoryUtils.getTransactionalEntityManager(factory);
            for (LocalDate date : dates) {
                OwnInvoice invoice = new OwnInvoice(date);
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

    /**
     * The application's own configuration: its entities, and the customizer that hands Hibernate the tenant
     * resolver and the application's {@code MultiTenantConnectionProvider} bean.
     */
    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = OwnInvoice.class)
    static class Tenants {

        @Bean
        HibernatePropertiesCustomizer multiTenancy(MultiTenantConnectionProvider<String> tenantConnections) {
            return properties -> {
                properties.put(MultiTenancySettings.MULTI_TENANT_CONNECTION_PROVIDER, tenantConnections);
                properties.put(MultiTenancySettings.MULTI_TENANT_IDENTIFIER_RESOLVER,
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
            };
        }
    }
}
