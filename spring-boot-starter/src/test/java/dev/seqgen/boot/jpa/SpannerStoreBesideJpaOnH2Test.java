package dev.seqgen.boot.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenSpannerAutoConfiguration;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.testing.LogRecords;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.logging.Level;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code seqgen.store=spanner} beside JPA entities on an H2 {@code DataSource}: the Spanner store cannot read the
 * entity table, so the application starts with a warning naming the sequence and the table, and the first id comes
 * from the sequence's row, nothing read from H2.
 */
class SpannerStoreBesideJpaOnH2Test {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void theFirstIdIsServedAndTheWarningSaysTheTableIsNotAdopted() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                        SeqgenSpannerAutoConfiguration.class, SeqgenAutoConfiguration.class))
                .withUserConfiguration(Entities.class)
                .withPropertyValues("spring.datasource.generate-unique-name=true", "seqgen.store=spanner",
                        "seqgen.spanner.project-id=" + SpannerEmulator.PROJECT,
                        "seqgen.spanner.instance-id=" + emulator.instanceId(),
                        "seqgen.spanner.database-id=" + emulator.databaseId(),
                        "seqgen.spanner.emulator-host=" + emulator.host(),
                        "seqgen.spanner.operation-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                        "seqgen.defaults.acquire-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                        "spring.jpa.hibernate.ddl-auto=create-drop")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(logs.messages(Level.WARNING)).singleElement().asString()
                            .contains("sequence 'boot_tickets'", "seqgen_boot_ticket", "application's h2 database",
                                    "spanner store");
                    new JdbcTemplate(context.getBean(DataSource.class))
                            .update("INSERT INTO seqgen_boot_ticket (id) VALUES (1000)");
                    EntityManagerFactory entityManagerFactory = context.getBean(EntityManagerFactory.class);
                    EntityManager entityManager = entityManagerFactory.createEntityManager();
                    try {
                        entityManager.getTransaction().begin();
                        BootTicket ticket = new BootTicket();
                        entityManager.persist(ticket);
                        entityManager.getTransaction().commit();
                        assertThat(ticket.getId()).as("from the row, above nothing read").isEqualTo(1L);
                    } finally {
                        entityManager.close();
                    }
                });
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = BootTicket.class)
    static class Entities {
    }
}
