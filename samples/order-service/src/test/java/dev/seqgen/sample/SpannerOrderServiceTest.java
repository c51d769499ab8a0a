package dev.seqgen.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.KeyOrder;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The suite with the {@code spanner} profile on the Cloud Spanner emulator: the entities through Hibernate's
 * {@code SpannerDialect} and the Spanner JDBC driver, seqgen's sequence rows in the same database through its JDBC
 * store, so invoice numbers are {@code sync} and gapless as on the other databases, aborted transactions and all.
 * The emulator aborts every read-write transaction that meets another one, so the concurrent tests of the suite
 * run through the service's retries, and one test here checks that they did.
 */
@DisplayName("order service on the cloud spanner emulator")
@ActiveProfiles("spanner")
class SpannerOrderServiceTest extends OrderServiceHttpTest {

    @RegisterExtension
    static final SampleSpanner SPANNER = new SampleSpanner();

    @DynamicPropertySource
    static void spanner(DynamicPropertyRegistry registry) {
        SPANNER.register(registry);
        // The profile's tables come from schema-spanner.sql: Hibernate's Spanner schema export is not valid DDL.
        registry.add("spring.jpa.hibernate.ddl-auto", () -> "none");
    }

    @Autowired
    private SequenceRegistry registry;

    @Autowired
    private DataSource dataSource;

    /**
     * Eight clients at once, each creating orders and issuing their invoices: Spanner aborts some of the
     * transactions, the service runs each again, and a retried invoice takes its number again in its new
     * transaction; the committed numbers are 1..N. Whether a round meets an abort is up to the emulator's timing,
     * so rounds go on (at most ten) until one did.
     */
    @Test
    void concurrentInvoicesWhoseTransactionsSpannerAbortedAreRunAgainWithGaplessNumbers() throws Exception {
        double abortsBefore = aborts();
        List<Long> numbers = new ArrayList<>();
        for (int round = 0; round < 10 && aborts() == abortsBefore; round++) {
            long[] taken = Concurrently.run(8, thread -> {
                long[] mine = new long[3];
                for (int i = 0; i < mine.length; i++) {
                    long orderId = createOrder("aborted-" + thread, 2).path("id").asLong();
                    mine[i] = body(post("/orders/" + orderId + "/invoice", ""), 201).path("counter").asLong();
                }
                return mine;
            });
            Arrays.stream(taken).forEach(numbers::add);
        }

        assertThat(aborts()).as("transactions Spanner aborted, run again").isGreaterThan(abortsBefore);
        long[] answered = numbers.stream().mapToLong(Long::longValue).toArray();
        Concurrently.assertUnique(answered);
        long[] committed = allInvoiceNumbers();
        Concurrently.assertContiguousFrom(1, committed);
        assertThat(committed).contains(answered);
        assertThat(registry.store().nextValue(defaultSeriesRow())).as("the series' row")
                .hasValue(committed.length + 1);
    }

    private double aborts() throws Exception {
        return body(get("/actuator/metrics/sample.transactions.aborted"), 200).path("measurements").get(0)
                .path("value").asDouble();
    }

    @Test
    void theEntitiesAndTheSequenceRowsAreInOneSpannerDatabase() throws Exception {
        JsonNode created = body(post("/orders", "{\"customer\":\"spanner\",\"lines\":[{\"product\":\"tea\","
                + "\"quantity\":1,\"unitPrice\":2.50}]}"), 201);
        long orderId = created.path("id").asLong();
        long orderNumber = created.path("number").asLong();
        // The number people read is sequential beside the bit-reversed key: below 2^31 while the key of any
        // counter below 2^31 is at least 2^32.
        assertThat(orderNumber).as("a readable order number").isPositive().isLessThan(1L << 31);
        assertThat(orderId).as("the bit-reversed key beside it").isGreaterThanOrEqualTo(1L << 32);

        JsonNode health = body(get("/actuator/health"), 200).path("components");
        assertThat(health.path("db").path("details").path("database").asString()).isEqualTo("Google Cloud Spanner");
        assertThat(registry.store()).isInstanceOf(JdbcSequenceStore.class);
        JdbcSequenceStore store = (JdbcSequenceStore) registry.store();
        assertThat(store.dialect()).isEqualTo(JdbcDialect.SPANNER);
        assertThat(store.table()).isEqualTo(SampleDatabase.SEQUENCE_TABLE);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            assertThat(connection.getMetaData().getURL()).contains("/databases/" + SampleSpanner.DATABASE);
            try (ResultSet order = statement.executeQuery("SELECT customer, number FROM orders WHERE id = "
                    + orderId)) {
                assertThat(order.next()).as("the order is a row in Spanner").isTrue();
                assertThat(order.getString(1)).isEqualTo("spanner");
                assertThat(order.getLong(2)).isEqualTo(orderNumber);
            }
            try (ResultSet row = statement.executeQuery("SELECT next_value FROM " + SampleDatabase.SEQUENCE_TABLE
                    + " WHERE name = 'orders'")) {
                assertThat(row.next()).as("the orders sequence's row is in the same database").isTrue();
                long counter = KeyOrder.BIT_REVERSED.key(orderId);
                assertThat(orderId).as("a bit-reversed key (key-order in application-spanner.properties)")
                        .isGreaterThan(counter);
                assertThat(row.getLong(1)).as("the row counts counters").isGreaterThan(counter);
            }
        }
    }
}
