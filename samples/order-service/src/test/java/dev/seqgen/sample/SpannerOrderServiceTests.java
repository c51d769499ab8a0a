package dev.seqgen.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.spanner.SpannerSequenceStore;

import javax.sql.DataSource;
import org.hibernate.MappingException;
import tools.jackson.databind.JsonNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The suite with the {@code spanner} profile: sequence rows in Cloud Spanner (the emulator of
 * {@code SPANNER_EMULATOR_HOST}, else skipped, failed when {@code SEQGEN_TEST_REQUIRE_DATABASES=true}), the
 * entities in embedded H2. Invoice numbers are {@code async} there, unique and ordered but not gapless, and
 * the suite checks exactly that.
 */
@DisplayName("order service on h2 with its sequences on cloud spanner")
@ActiveProfiles("spanner")
class SpannerOrderServiceTests extends OrderServiceHttpTests {

    @RegisterExtension
    static final SampleSpanner SPANNER = new SampleSpanner();

    @DynamicPropertySource
    static void spanner(DynamicPropertyRegistry registry) {
        SPANNER.register(registry);
        // An H2 database of its own, apart from the one the H2 suite's application (same JVM) keeps.
        registry.add("spring.datasource.url", () -> "jdbc:h2:mem:orders-spanner;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
    }

    @Autowired
    private SequenceRegistry registry;

    @Autowired
    private DataSource dataSource;

    @Override
    protected String invoiceStrategy() {
        return "async";
    }

    @Test
    void theSequenceRowsAreInSpannerAndTheEntitiesInH2() throws Exception {
        JsonNode endpoint = body(get("/actuator/seqgen"), 200);
        assertThat(endpoint.path("store").asString()).isEqualTo("spanner");
        JsonNode health = body(get("/actuator/health"), 200).path("components");
        assertThat(health.path("seqgen").path("details").path("store").asString()).isEqualTo("spanner");
        assertThat(health.path("db").path("details").path("database").asString()).isEqualTo("H2");
        assertThat(registry.store()).isInstanceOf(SpannerSequenceStore.class);
        assertThat(((SpannerSequenceStore) registry.store()).table()).isEqualTo(SampleDatabase.SEQUENCE_TABLE);
        try (var connection = dataSource.getConnection()) {
            assertThat(connection.getMetaData().getURL()).startsWith("jdbc:h2:mem:orders-spanner");
            try (var tables = connection.getMetaData().getTables(null, null, "SEQGEN%", null)) {
                assertThat(tables.next()).as("no sequence table in H2").isFalse();
            }
        }
    }

    /**
     * What happens if the profile did not override the entity's sync: the application does not start, and
     * the cause names the entity, the sequence and the store; no invoice is ever numbered as if gapless.
     */
    @Test
    void syncInvoiceNumbersOnTheSpannerStoreStopTheApplicationAtStartUpSayingWhy() {
        // Command-line arguments, which outrank application-spanner.properties (its invoices override included).
        SpringApplicationBuilder application = new SpringApplicationBuilder(OrderServiceApplication.class)
                .profiles("spanner");
        String[] arguments = { "--server.port=0", "--spring.main.banner-mode=off", "--logging.level.root=warn",
                "--logging.level.org.springframework.boot.SpringApplication=off",
                "--logging.level.org.springframework.orm.jpa=off",
                "--spring.datasource.url=jdbc:h2:mem:orders-spanner-sync;DB_CLOSE_DELAY=-1",
                "--seqgen.table=" + SampleDatabase.SEQUENCE_TABLE,
                "--seqgen.spanner.emulator-host=" + dev.seqgen.testing.SpannerEmulatorHost.host(),
                "--seqgen.spanner.project-id=" + SampleSpanner.PROJECT,
                "--seqgen.spanner.instance-id=" + SampleSpanner.INSTANCE,
                "--seqgen.spanner.database-id=" + SampleSpanner.DATABASE,
                "--seqgen.sequences.invoices.strategy=sync" };

        assertThatThrownBy(() -> application.run(arguments).close()).rootCause().isInstanceOf(MappingException.class)
                .hasMessageContaining("entity dev.seqgen.sample.orders.Invoice, property 'number',"
                        + " sequence 'invoices': the SYNC strategy")
                .hasMessageContaining("needs the JDBC store in the entities' database; the registry uses the"
                        + " spanner store");
    }
}
