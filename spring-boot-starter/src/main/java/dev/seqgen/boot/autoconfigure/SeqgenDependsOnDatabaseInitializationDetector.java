package dev.seqgen.boot.autoconfigure;

import dev.seqgen.jdbc.JdbcSequenceStore;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;
import org.springframework.core.env.Environment;

import java.util.Set;

/**
 * Makes seqgen's JDBC store start after the database initializers; not under deferred JPA initialization, where the
 * store serves the {@code EntityManagerFactory} that the initializers wait for.
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
