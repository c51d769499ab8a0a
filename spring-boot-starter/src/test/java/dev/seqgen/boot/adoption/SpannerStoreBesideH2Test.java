package dev.seqgen.boot.adoption;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.autoconfigure.SeqgenSpannerAutoConfiguration;
import dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration;
import dev.seqgen.boot.data.jdbc.spanner.beside.SideNote;
import dev.seqgen.boot.data.jdbc.spanner.beside.SideNoteRepository;
import dev.seqgen.boot.jpa.BootTicket;
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
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code seqgen.store=spanner} beside an H2 {@code DataSource} holding the application's tables: the Spanner store
 * cannot read them, so the application starts, the first value comes from the sequence's row (nothing read from H2,
 * where a row above it waits), and a warning names the sequence, the table and what to do. With JPA entities (at
 * start-up) and with Spring Data JDBC aggregates (at the first save).
 */
class SpannerStoreBesideH2Test {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withPropertyValues("spring.datasource.generate-unique-name=true", "seqgen.store=spanner",
                    "seqgen.schema.initialize=always",
                    "seqgen.spanner.project-id=" + SpannerEmulator.PROJECT,
                    "seqgen.spanner.instance-id=" + emulator.instanceId(),
                    "seqgen.spanner.database-id=" + emulator.databaseId(),
                    "seqgen.spanner.emulator-host=" + emulator.host(),
                    "seqgen.spanner.operation-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                    "seqgen.defaults.acquire-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s");

    @Test
    void jpaEntitiesGetTheirFirstIdAndTheWarningSaysTheirTableIsNotAdopted() {
        contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                        SeqgenSpannerAutoConfiguration.class, SeqgenAutoConfiguration.class))
                .withUserConfiguration(JpaEntities.class)
                .withPropertyValues("spring.jpa.hibernate.ddl-auto=create-drop")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(logs.messages(Level.WARNING)).singleElement().asString()
                            .contains("sequence 'boot_tickets'", "seqgen_boot_ticket", "application's h2 database",
                                    "spanner store");
                    new JdbcTemplate(context.getBean(DataSource.class))
                            .update("INSERT INTO seqgen_boot_ticket (id) VALUES (1000)");
                    EntityManager entityManager = context.getBean(EntityManagerFactory.class).createEntityManager();
                    try {
                        entityManager.getTransaction().begin();
                        BootTicket ticket = new BootTicket();
                        entityManager.persist(ticket);
                        entityManager.getTransaction().commit();
                        assertThat(ticket.getId()).as("from the row, nothing read from H2").isEqualTo(1L);
                    } finally {
                        entityManager.close();
                    }
                });
    }

    @Test
    void aggregatesGetTheirFirstIdAndTheWarningSaysTheirTableIsNotAdopted() {
        contextRunner.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                        TransactionAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class,
                        SeqgenSpannerAutoConfiguration.class, SeqgenAutoConfiguration.class,
                        SeqgenDataJdbcAutoConfiguration.class))
                .withUserConfiguration(Aggregates.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                    jdbc.execute("CREATE TABLE side_note (id BIGINT NOT NULL PRIMARY KEY, text VARCHAR(100))");
                    jdbc.update("INSERT INTO side_note (id, text) VALUES (1000, 'before')");

                    SideNote saved = context.getBean(SideNoteRepository.class).save(new SideNote(null, "after"));
                    assertThat(saved.id()).as("from the row, nothing read from H2").isEqualTo(1L);
                    assertThat(logs.messages(Level.WARNING)).singleElement().asString()
                            .contains("sequence 'side_notes'", "application's h2 database",
                                    "seqgen.sequences.side_notes.initial-value").containsIgnoringCase("side_note");
                });
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = BootTicket.class)
    static class JpaEntities {
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SideNote.class)
    static class Aggregates {
    }
}
