package dev.seqgen.sample.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.testing.TestDatabase;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The suite on PostgreSQL with the {@code postgres} profile: the server of {@code SEQGENTEST_POSTGRES_URL}, else a
 * Testcontainers one, else an embedded one, else skipped (failed when {@code SEQGENTEST_REQUIRE_DATABASES=true}).
 * The application runs in a schema of its own ({@value #SCHEMA}, its {@code currentSchema}), apart from the tables
 * of seqgen's other tests in the same database (some have a table {@code invoice} too); the schema's tables are
 * dropped before Spring starts (the profile's {@code connection-init-sql} creates it again at the first connection), so
 * the run starts from empty tables and invoice number 1.
 */
@DisplayName("invoice service (spring data jdbc) on postgresql")
@ActiveProfiles("postgres")
class PostgresInvoiceServiceTest extends InvoiceServiceHttpTest {

    /** The schema the application's tables and sequence table are created in. */
    static final String SCHEMA = "seqgen_sample_jdbc";

    @RegisterExtension
    static final Server SERVER = new Server();

    @DynamicPropertySource
    static void datasource(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> {
            String url = SERVER.server.getJdbcUrl();
            return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA;
        });
        registry.add("spring.datasource.username", () -> SERVER.server.getUsername());
        registry.add("spring.datasource.password",
                () -> SERVER.server.getPassword() == null ? "" : SERVER.server.getPassword());
    }

    /** Finds the server before the first test instance is made, so before Spring starts, and drops the schema. */
    static final class Server implements TestInstancePreConstructCallback {

        private HikariDataSource server;

        private Throwable failure;

        @Override
        public synchronized void preConstructTestInstance(TestInstanceFactoryContext factoryContext,
                ExtensionContext context) throws Exception {
            if (server == null && failure == null) {
                try {
                    HikariDataSource found = (HikariDataSource) TestDatabase.POSTGRESQL.dataSource();
                    TestDatabase.POSTGRESQL.execute("DROP SCHEMA IF EXISTS " + SCHEMA + " CASCADE");
                    server = found;
                } catch (AssertionError | RuntimeException e) {
                    failure = e;
                }
            }
            if (failure instanceof AssertionError required) {
                throw required;
            }
            if (failure instanceof RuntimeException missing) {
                throw missing;
            }
        }
    }
}
