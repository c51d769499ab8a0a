package dev.seqgen.sample;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.testing.TestDatabase;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A database server for the suite, found as every seqgen test finds one ({@link TestDatabase}): the
 * environment, else Testcontainers, else each test is skipped with the reason (or fails, when
 * {@code SEQGENTEST_REQUIRE_DATABASES=true}). It looks before the first test instance is made, so before
 * Spring starts the application, and drops the sample's sequence table then; Hibernate recreates the
 * entities' tables ({@code ddl-auto=create}), so a run starts from empty tables and invoice number 1.
 */
final class SampleDatabase implements TestInstancePreConstructCallback {

    /** The {@code seqgen.table} of the suite, apart from the tables of seqgen's other tests. */
    static final String SEQUENCE_TABLE = "seqgen_sample_sequences";

    private final TestDatabase database;

    private HikariDataSource server;

    private RuntimeException missing;

    private AssertionError required;

    SampleDatabase(TestDatabase database) {
        this.database = database;
    }

    @Override
    public synchronized void preConstructTestInstance(TestInstanceFactoryContext factoryContext,
            ExtensionContext context) {
        if (server == null && missing == null && required == null) {
            try {
                server = (HikariDataSource) database.dataSource();
                database.dropTable(SEQUENCE_TABLE);
            } catch (AssertionError e) {
                required = e;
            } catch (RuntimeException e) {
                missing = e;
            }
        }
        if (required != null) {
            throw required;
        }
        if (missing != null) {
            throw missing;
        }
    }

    /** Points {@code spring.datasource.*} at the server. */
    void register(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> server.getJdbcUrl());
        registry.add("spring.datasource.username", () -> server.getUsername());
        registry.add("spring.datasource.password", () -> server.getPassword() == null ? "" : server.getPassword());
    }
}
