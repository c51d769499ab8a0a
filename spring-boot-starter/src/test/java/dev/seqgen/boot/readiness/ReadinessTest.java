package dev.seqgen.boot.readiness;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceStats;
import dev.seqgen.testing.TestDatabase;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A Spring Boot application reports itself ready ({@code ReadinessState.ACCEPTING_TRAFFIC}) only with the first
 * blocks of its sequences in hand: one mapped by an entity only, one configured under {@code seqgen.sequences}
 * only; what each holds is read by a listener of the readiness event itself, on each database.
 */
class ReadinessTest {

    /** The sequences' stats as the readiness event found them. */
    static final Map<String, SequenceStats> AT_READINESS = new ConcurrentHashMap<>();

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theFirstBlocksOfTheMappedAndConfiguredSequencesAreInHandWhenTheApplicationReportsItselfReady(
            TestDatabase database) {
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        String table = TestDatabase.uniqueTable();
        AT_READINESS.clear();
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class).properties(
                "spring.datasource.url=" + shared.getJdbcUrl(),
                "spring.datasource.username=" + (shared.getUsername() == null ? "" : shared.getUsername()),
                "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()),
                "spring.main.web-application-type=none", "spring.main.banner-mode=off",
                "spring.jpa.open-in-view=false", "spring.jpa.hibernate.ddl-auto=create-drop",
                "seqgen.table=" + table, "seqgen.schema.initialize=always",
                "seqgen.sequences.ready_invoices.strategy=batch", "seqgen.sequences.ready_invoices.block-size=10")
                .run()) {
            assertThat(AT_READINESS).containsOnlyKeys("ready_tickets", "ready_invoices");
            SequenceStats tickets = AT_READINESS.get("ready_tickets");
            assertThat(tickets.blockEnd() - tickets.blockFirst())
                    .as("an adaptive async-batch sequence warmed up takes the configured block first").isEqualTo(1000);
            // Its second block too, sized by how long the first reservation took (the configured block, or a little
            // more after a slow first connection), and a third only if the row had queued for seconds.
            assertThat(tickets.reservations()).isBetween(2L, 3L);
            assertThat(tickets.remaining()).isGreaterThanOrEqualTo(2000);
            assertThat(AT_READINESS.get("ready_invoices").remaining()).isEqualTo(10);

            assertThat(persist(context)).as("the mapped sequence serves its entity").isEqualTo(1);
            assertThat(context.getBean(SequenceRegistry.class).sequence("ready_tickets").stats().waits())
                    .as("the first caller found its value in hand").isZero();
        } finally {
            database.dropTable(table);
            database.dropTable("seqgen_ready_ticket");
        }
    }

    private static long persist(ConfigurableApplicationContext context) {
        EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
        return new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).execute(status -> {
            EntityManager entityManager = EntityManagerFactoryUtils.getTransactionalEntityManager(factory);
            ReadyTicket ticket = new ReadyTicket();
            entityManager.persist(ticket);
            return ticket.getId();
        });
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @AutoConfigurationPackage(basePackageClasses = ReadyTicket.class)
    static class Application {

        @Bean
        ApplicationListener<AvailabilityChangeEvent<?>> readiness(SequenceRegistry registry) {
            return event -> {
                if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
                    registry.sequences().forEach(sequence -> AT_READINESS.put(sequence.name(), sequence.stats()));
                }
            };
        }
    }
}
