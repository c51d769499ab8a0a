package dev.seqgen.boot.rowonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.testing.TestDatabase;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.EntityManagerFactoryUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A sequence configured by an annotation ({@code initialValue = 50000}) and by a property that tunes another of its
 * settings: its row is created once per start, at the annotation's initial value, whoever asks first (the
 * Hibernate generator when the session factory is built, or the starter's creation of configured sequences when
 * Hibernate may not touch the database while booting and the generator waits for its first value).
 */
class RowCreatedOnceTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theRowIsCreatedOnceAtTheAnnotationsInitialValue(TestDatabase database) {
        startAndCount(database, false);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theRowIsCreatedOnceAtTheAnnotationsInitialValueWhenTheStarterCreatesItFirst(TestDatabase database) {
        startAndCount(database, true);
    }

    private static void startAndCount(TestDatabase database, boolean noJdbcAtBoot) {
        String table = TestDatabase.uniqueTable();
        AtomicInteger inserts = new AtomicInteger();
        DataSource counted = counting(database.dataSource(), "into " + table.toLowerCase(Locale.ROOT) + " ",
                inserts);
        try {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(HibernateJpaAutoConfiguration.class,
                            TransactionAutoConfiguration.class, SeqgenAutoConfiguration.class))
                    .withUserConfiguration(Entities.class)
                    .withBean(DataSource.class, () -> counted)
                    .withPropertyValues("seqgen.table=" + table, "seqgen.schema.initialize=always",
                            "spring.jpa.hibernate.ddl-auto=create-drop",
                            "seqgen.sequences.ticket_sale_seq.adaptive.enabled=false",
                            "spring.jpa.properties.hibernate.boot.allow_jdbc_metadata_access=" + !noJdbcAtBoot,
                            // Without JDBC access at boot Hibernate cannot find the dialect itself.
                            "spring.jpa.properties.hibernate.dialect=" + dialect(database))
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(persist(context)).as("the first id").isEqualTo(50000L);
                        assertThat(persist(context)).as("the second id").isEqualTo(50001L);
                        assertThat(inserts).as("creations of the sequence's row in this start").hasValue(1);
                    });
        } finally {
            database.dropTable(table);
            database.dropTable("seqgen_sale_ticket");
        }
    }

    private static String dialect(TestDatabase database) {
        return switch (database) {
            case H2 -> "org.hibernate.dialect.H2Dialect";
            case HSQLDB -> "org.hibernate.dialect.HSQLDialect";
            case POSTGRESQL -> "org.hibernate.dialect.PostgreSQLDialect";
            case MARIADB -> "org.hibernate.dialect.MariaDBDialect";
        };
    }

    private static Long persist(AssertableApplicationContext context) {
        EntityManagerFactory factory = context.getBean(EntityManagerFactory.class);
        return new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).execute(status -> {
            EntityManager entityManager = EntityManagerFactoryUtils.getTransactionalEntityManager(factory);
            SaleTicket ticket = new SaleTicket();
            entityManager.persist(ticket);
            return ticket.getId();
        });
    }

    /** The data source, counting the inserts prepared whose SQL contains {@code fragment}. */
    private static DataSource counting(DataSource target, String fragment, AtomicInteger count) {
        return (DataSource) Proxy.newProxyInstance(RowCreatedOnceTest.class.getClassLoader(),
                new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    Object result = invoke(method, target, args);
                    return result instanceof Connection connection ? counting(connection, fragment, count) : result;
                });
    }

    private static Connection counting(Connection target, String fragment, AtomicInteger count) {
        return (Connection) Proxy.newProxyInstance(RowCreatedOnceTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if ((method.getName().equals("prepareStatement") || method.getName().equals("prepareCall"))
                            && args[0] instanceof String sql && isWrite(sql.toLowerCase(Locale.ROOT), fragment)) {
                        count.incrementAndGet();
                    }
                    return invoke(method, target, args);
                });
    }

    /** An insert (or an insert-if-missing MERGE) into the table; the fragment is {@code "into <table> "}. */
    private static boolean isWrite(String sql, String fragment) {
        return (sql.startsWith("insert") || sql.startsWith("merge")) && sql.contains(fragment);
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SaleTicket.class)
    static class Entities {
    }
}
