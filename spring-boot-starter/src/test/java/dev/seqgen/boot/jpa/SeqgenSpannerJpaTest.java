package dev.seqgen.boot.jpa;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.jpa.SpannerInvoice;
import dev.seqgen.spanner.jpa.SpannerOrder;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Spring Boot JPA application whose entities live in Cloud Spanner (the emulator), reached through the
 * Spanner JDBC driver ({@code jdbc:cloudspanner:}) and Hibernate's {@code SpannerDialect}, with seqgen's
 * auto-configured JDBC store in the same database: SYNC invoice numbers taken in the application's own
 * transaction are gapless despite a rollback, async-batch order ids are unique.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SeqgenSpannerJpaTest {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator(
            "CREATE TABLE spanner_invoice (number INT64 NOT NULL, customer STRING(255)) PRIMARY KEY (number)",
            "CREATE TABLE spanner_order (id INT64 NOT NULL, customer STRING(255)) PRIMARY KEY (id)");

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    HibernateJpaAutoConfiguration.class, TransactionAutoConfiguration.class,
                    SeqgenAutoConfiguration.class))
            .withUserConfiguration(SpannerEntities.class);

    @Test
    @Order(1)
    void theSequenceTableIsCreatedWithSpannersDdlWhenAskedAndNamedWhenMissing() {
        ApplicationContextRunner application = contextRunner.withPropertyValues(spannerDataSource());
        application.run(context -> assertThat(context).getFailure().rootCause()
                .hasMessageContaining("Table not found: seqgen_sequences"));
        application.withPropertyValues("seqgen.schema.initialize=always").run(context -> {
            assertThat(context).hasNotFailed();
            // The table exists: reading a row that is not there answers "none" instead of failing.
            assertThat(context.getBean(SequenceRegistry.class).store().nextValue("no_such_sequence")).isEmpty();
        });
    }

    @Test
    @Order(2)
    void spannerEntitiesGetGaplessSyncNumbersAndUniqueAsyncBatchIdsThroughTheJdbcDriver() {
        contextRunner.withPropertyValues(spannerDataSource()).withPropertyValues(
                "seqgen.schema.initialize=always",
                // Spanner's own DDL created the entity tables, as the application's migrations would.
                "spring.jpa.hibernate.ddl-auto=none")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    JdbcSequenceStore store = (JdbcSequenceStore) context.getBean(SequenceRegistry.class).store();
                    assertThat(store.dialect()).isEqualTo(JdbcDialect.SPANNER);

                    List<Long> numbers = new ArrayList<>();
                    numbers.addAll(inTransaction(context, false, entityManager -> {
                        SpannerInvoice first = new SpannerInvoice("a");
                        SpannerInvoice second = new SpannerInvoice("a");
                        entityManager.persist(first);
                        entityManager.persist(second);
                        return List.of(first.getNumber(), second.getNumber());
                    }));
                    inTransaction(context, true, entityManager -> {
                        SpannerInvoice rolledBack = new SpannerInvoice("b");
                        entityManager.persist(rolledBack);
                        return List.of(rolledBack.getNumber());
                    });
                    numbers.addAll(inTransaction(context, false, entityManager -> {
                        SpannerInvoice third = new SpannerInvoice("c");
                        entityManager.persist(third);
                        return List.of(third.getNumber());
                    }));
                    assertThat(numbers).as("gapless: the rolled-back number is taken again").containsExactly(1L, 2L, 3L);

                    List<Long> orders = new ArrayList<>();
                    for (int i = 0; i < 5; i++) {
                        orders.addAll(inTransaction(context, false, entityManager -> {
                            List<Long> ids = new ArrayList<>();
                            for (int j = 0; j < 10; j++) {
                                SpannerOrder order = new SpannerOrder("o");
                                entityManager.persist(order);
                                ids.add(order.getId());
                            }
                            return ids;
                        }));
                    }
                    assertThat(orders).hasSize(50).doesNotHaveDuplicates();
                });
    }

    private static String[] spannerDataSource() {
        return new String[] {"spring.datasource.url=jdbc:cloudspanner://" + emulator.host() + "/projects/"
                + SpannerEmulator.PROJECT + "/instances/" + emulator.instanceId() + "/databases/"
                + emulator.databaseId() + "?autoConfigEmulator=true",
                "spring.datasource.driver-class-name=com.google.cloud.spanner.jdbc.JdbcDriver",
                "spring.jpa.database-platform=org.hibernate.dialect.SpannerDialect"};
    }

    /**
     * Runs the work in a transaction, committed or rolled back; an aborted one (the emulator runs one
     * read-write transaction at a time) is retried, as an application on Spanner retries.
     */
    private static List<Long> inTransaction(AssertableApplicationContext context, boolean rollback,
            Function<EntityManager, List<Long>> work) {
        EntityManagerFactory entityManagerFactory = context.getBean(EntityManagerFactory.class);
        TransactionTemplate transactions = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        return SpannerEmulator.retryingAborted(() -> transactions.execute(status -> {
            List<Long> result = work.apply(
                    EntityManagerFactoryUtils.getTransactionalEntityManager(entityManagerFactory));
            EntityManagerFactoryUtils.getTransactionalEntityManager(entityManagerFactory).flush();
            if (rollback) {
                status.setRollbackOnly();
            }
            return result;
        }));
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SpannerInvoice.class)
    static class SpannerEntities {
    }
}
