package dev.seqgen.sample;

import dev.seqgen.testing.TestDatabase;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The suite on PostgreSQL with the {@code postgres} profile: the server of {@code SEQGENTEST_POSTGRES_URL},
 * else a Testcontainers one, else skipped (failed when {@code SEQGENTEST_REQUIRE_DATABASES=true}).
 */
@DisplayName("order service on postgresql")
@ActiveProfiles("postgres")
class PostgresOrderServiceTest extends OrderServiceHttpTest {

    @RegisterExtension
    static final SampleDatabase DATABASE = new SampleDatabase(TestDatabase.POSTGRESQL);

    @DynamicPropertySource
    static void datasource(DynamicPropertyRegistry registry) {
        DATABASE.register(registry);
    }
}
