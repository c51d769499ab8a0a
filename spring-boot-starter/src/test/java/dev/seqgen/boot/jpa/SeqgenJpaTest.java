package dev.seqgen.boot.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.Strategy;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.testing.TestDatabase;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** A JPA application whose entity changes strategy through properties alone, on each database. */
class SeqgenJpaTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                    SeqgenAutoConfiguration.class))
            .withUserConfiguration(Entities.class);

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theEntitysStrategyComesFromThePropertiesWithoutACodeChange(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        JdbcTemplate jdbc = new JdbcTemplate(database.dataSource());
        ApplicationContextRunner application = contextRunner.withPropertyValues(datasource(database))
                .withPropertyValues("seqgen.table=" + table, "seqgen.schema.initialize=always",
                        // update: the entity table and seqgen's (part of Hibernate's schema) outlive each context,
                        // as in an application restarted on its database.
                        "spring.jpa.hibernate.ddl-auto=update");
        try {
            application.withPropertyValues("seqgen.sequences.boot_tickets.strategy=sync").run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(SequenceRegistry.class).sequence("boot_tickets").strategy())
                        .isEqualTo(Strategy.SYNC);
                List<Long> ids = new ArrayList<>();
                ids.addAll(persist(context, 2, false));
                persist(context, 1, true);
                ids.addAll(persist(context, 1, false));
                assertThat(ids).as("sync: gapless despite the rollback").containsExactly(1L, 2L, 3L);
                assertThat(nextValue(jdbc, table)).isEqualTo(4);
            });

            application.withPropertyValues("seqgen.defaults.block-size=100").run(context -> {
                assertThat(context.getBean(SequenceRegistry.class).sequence("boot_tickets").strategy())
                        .isEqualTo(Strategy.ASYNC_BATCH);
                assertThat(persist(context, 3, false)).containsExactly(4L, 5L, 6L);
                assertThat(nextValue(jdbc, table)).as("async-batch: a block of 100 reserved").isEqualTo(104);
            });
            assertThat(nextValue(jdbc, table)).as("the unused tail is given back at close").isEqualTo(7);
        } finally {
            database.dropTable(table);
            database.dropTable("seqgen_boot_ticket");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void underDdlAutoValidateSeqgenCreatesItsTablesAsSchemaInitializeSaysAndFailsWithoutThem(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        database.dropTable("seqgen_boot_ticket");
        database.execute("CREATE TABLE seqgen_boot_ticket (id BIGINT NOT NULL PRIMARY KEY)");
        ApplicationContextRunner application = contextRunner.withPropertyValues(datasource(database))
                .withPropertyValues("seqgen.table=" + table, "spring.jpa.hibernate.ddl-auto=validate");
        try {
            application.withPropertyValues("seqgen.schema.initialize=never").run(context ->
                    assertThat(context).getFailure().rootCause().message().containsIgnoringCase(table));
            application.withPropertyValues("seqgen.schema.initialize=always").run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(persist(context, 2, false)).hasSize(2).doesNotHaveDuplicates();
            });
        } finally {
            database.dropTable(table);
            database.dropTable("seqgen_boot_ticket");
        }
    }

    /** Persists {@code count} tickets in one transaction, committed or rolled back; returns their ids. */
    private static List<Long> persist(AssertableApplicationContext context, int count, boolean rollback) {
        EntityManagerFactory entityManagerFactory = context.getBean(EntityManagerFactory.class);
        return new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).execute(status -> {
            EntityManager entityManager = EntityManagerFactoryUtils.getTransactionalEntityManager(entityManagerFactory);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                BootTicket ticket = new BootTicket();
                entityManager.persist(ticket);
                ids.add(ticket.getId());
            }
            entityManager.flush();
            if (rollback) {
                status.setRollbackOnly();
            }
            return ids;
        });
    }

    private static long nextValue(JdbcTemplate jdbc, String table) {
        return jdbc.queryForObject("SELECT next_value FROM " + table + " WHERE name = 'boot_tickets'", Long.class);
    }

    private static String[] datasource(TestDatabase database) {
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        return new String[] { "spring.datasource.url=" + shared.getJdbcUrl(),
                "spring.datasource.username=" + shared.getUsername(),
                "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()) };
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = BootTicket.class)
    static class Entities {
    }
}
