package dev.seqgen.boot.autoconfigure;

import dev.seqgen.jdbc.JdbcSequenceStore;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;
import org.springframework.core.env.Environment;

import java.util.Set;

/**
 * Makes seqgen's JDBC store start after the database initializers ({@code schema.sql}, Flyway, Liquibase). Not
 * under {@code spring.jpa.defer-datasource-initialization=true}: the store serves the {@code EntityManagerFactory}
 * that the initializers then wait for, so its table comes from Hibernate's schema or already exists.
 */
class SeqgenDependsOnDatabaseInitializationDetector extends AbstractBeansOfTypeDependsOnDatabaseInitializationDetector {

    private final Environment environment;

    SeqgenDependsOnDatabaseInitializationDetector(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected Set<Class<?>> getDependsOnDatabaseInitializationBeanTypes() {
        boolean deferred = environment.getProperty("spring.jpa.defer-datasource-initialization", Boolean.class, false);
        return deferred ? Set.of() : Set.of(JdbcSequenceStore.class);
    }
}
