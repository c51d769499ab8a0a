package dev.seqgen.boot.tenantconnections;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.boot.actuate.SeqgenEndpoint;
import dev.seqgen.boot.actuate.SeqgenEndpoint.SequenceDescriptor;
import dev.seqgen.boot.actuate.SeqgenEndpoint.SeriesPage;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.endpoint.SeqgenEndpointAutoConfiguration;
import dev.seqgen.boot.autoconfigure.metrics.SeqgenMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

    /** The sequences of {@link OwnInvoice}. */
    private static final String NUMBERS = "seqgen_own_invoice_numbers";
    private static final String CODES = "seqgen_own_invoice_codes";
    private static final String IDS = "seqgen_own_invoice_ids";

    private OwnTenants() {
    }

    /**
     * The application, with the auto-configurations it uses, seqgen's endpoint and meters among them; the test adds a
     * MultiTenantConnectionProvider bean.
     */
    static ApplicationContextRunner application() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                        SeqgenAutoConfiguration.class, SeqgenEndpointAutoConfiguration.class,
                        SeqgenMetricsAutoConfiguration.class))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withPropertyValues("management.endpoints.web.exposure.include=seqgen")
                .withUserConfiguration(Tenants.class);
    }

    /**
     * Before any invoice: the endpoint lists the sequences numbered only in series, with their settings, no series
     * open, and where their series are listed.
     */
    static void numberedInSeriesListedBeforeAnyInvoice(AssertableApplicationContext context) {
        assertThat(context).hasNotFailed();
        SeqgenEndpoint endpoint = context.getBean(SeqgenEndpoint.class);
        assertThat(endpoint.sequences().sequences()).containsKeys(NUMBERS, CODES);
        SequenceDescriptor numbers = endpoint.sequence(NUMBERS);
        assertThat(numbers).as("numbered only in series, never used itself").isNotNull();
        assertThat(numbers.strategy()).as("the annotation's").isEqualTo("sync");
        assertThat(numbers.inUse()).isFalse();
        assertThat(numbers.openSeries()).isZero();
        assertThat(numbers.seriesPage()).isEqualTo(NUMBERS + "/{prefix}");
    }

    /**
     * After {@link #invoiceAndCheck}: every series of the invoice numbers, wherever it counts (a central table, or
     * each tenant's own), is listed by the endpoint by key prefix with its row's next value, and counted by the
     * sequence's {@code seqgen.series.open} gauge; the ids' series, in the application's table, beside them.
     */
    static void seriesListedAndCounted(AssertableApplicationContext context) {
        SeqgenEndpoint endpoint = context.getBean(SeqgenEndpoint.class);
        SequenceDescriptor numbers = endpoint.sequence(NUMBERS);
        assertThat(numbers).isNotNull();
        assertThat(numbers.openSeries()).as("acme/2025, acme/2026, globex/2026").isEqualTo(3);
        assertThat(endpoint.sequences().sequences().get(CODES).openSeries()).isEqualTo(3);
        SeriesPage acme = endpoint.series(NUMBERS, new String[] {"acme"}, null);
        assertThat(acme.total()).isEqualTo(2);
        assertThat(acme.series()).containsOnlyKeys("acme/2025", "acme/2026");
        assertThat(acme.series().get("acme/2026").storeNextValue()).as("after 43, read from the series' row")
                .isEqualTo(44);
        assertThat(acme.series().get("acme/2025").storeNextValue()).isEqualTo(2);
        assertThat(acme.series().get("acme/2026").strategy()).isEqualTo("sync");
        SeriesPage all = endpoint.series(NUMBERS, new String[] {"*"}, null);
        assertThat(all.series()).containsOnlyKeys("acme/2025", "acme/2026", "globex/2026");
        assertThat(all.series().get("globex/2026").storeNextValue()).isEqualTo(3);
        assertThat(endpoint.series(IDS, new String[] {"*"}, null).series()).containsOnlyKeys("acme", "globex");

        MeterRegistry meters = context.getBean(MeterRegistry.class);
        assertThat(meters.get("seqgen.series.open").tag("sequence", NUMBERS).gauge().value()).isEqualTo(3);
        assertThat(meters.get("seqgen.series.open").tag("sequence", CODES).gauge().value()).isEqualTo(3);
        assertThat(meters.get("seqgen.series.open").tag("sequence", IDS).gauge().value()).isEqualTo(2);
        assertThat(meters.get("seqgen.series.open").gauges()).as("one gauge per sequence, never per tenant")
                .allSatisfy(gauge -> assertThat(gauge.getId().getTags()).hasSize(1));
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
