package dev.seqgen.boot.autoconfigure;

import dev.seqgen.jdbc.JdbcSequenceStore;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitializationDetector;
import org.springframework.core.env.Environment;

import java.util.Collections;
import java.util.Set;

/**
 * Makes seqgen's JDBC store start after the application's database initializers ({@code schema.sql},
 * Flyway, Liquibase), so that its table exists when the store first uses it,
 * except where the store must start before them.
 *
 * <p>With {@code spring.jpa.defer-datasource-initialization=true}, Spring Boot counts the JPA
 * {@code EntityManagerFactory} as a database initializer and runs the script initializers after it. The
 * store serves that {@code EntityManagerFactory} (its Hibernate generators take their registry while it is
 * built), so it cannot also wait for it: then it depends on no initializer, as the {@code EntityManagerFactory}
 * itself, and its table comes from Hibernate's schema ({@code ddl-auto}, where seqgen's table is included) or
 * already exists. Registered in {@code META-INF/spring.factories}.
 */
class SeqgenDependsOnDatabaseInitializationDetector extends AbstractBeansOfTypeDependsOnDatabaseInitializationDetector
        implements DependsOnDatabaseInitializationDetector {

    private final Environment environment;

    SeqgenDependsOnDatabaseInitializationDetector(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected Set<Class<?>> getDependsOnDatabaseInitializationBeanTypes() {
        boolean deferred = environment.getProperty("spring.jpa.defer-datasource-initialization", Boolean.class,
                false);
        return deferred ? Collections.emptySet() : Collections.singleton(JdbcSequenceStore.class);
    }
}
