package dev.seqgen.sample.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.testing.Concurrently;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The invoice service over real HTTP, on the database of the subclass, which starts from empty tables: one invoice
 * saved alone, 100 in one {@code saveAll}, one saved in a transaction that rolls back, one more saved alone. The
 * committed invoices, their lines included, have unique ids, and their numbers are exactly 1..n: the rolled-back
 * save took a number and gave it back with its rollback. The tests share the application and its data, so what
 * they assert about numbers holds for every invoice any of them saved.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "spring.main.banner-mode=off", "logging.level.root=warn" })
abstract class InvoiceServiceHttpTest {

    private static final int BATCH = 100;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    private int port;

    @Autowired
    private InvoiceRepository invoices;

    @Autowired
    private PlatformTransactionManager transactions;

    @Test
    void saveSaveAllAndARollbackLeaveUniqueIdsAndInvoiceNumbersExactlyOneToN() throws Exception {
        long before = invoices.count();
        JsonNode first = body(post("/invoices", """
                {"customer": "acme", "lines": [{"product": "bolt", "amount": 1.50},
                                                {"product": "nut", "amount": 0.25}]}"""), 201);
        assertThat(first.path("number").asLong()).as("the first invoice's number").isEqualTo(before + 1);
        assertThat(first.path("id").asLong()).as("its id").isPositive();
        assertThat(first.path("lines")).hasSize(2);

        JsonNode batch = body(post("/invoices/batch?count=" + BATCH, ""), 201);
        assertThat(batch).hasSize(BATCH);
        long[] batchNumbers = new long[BATCH];
        for (int i = 0; i < BATCH; i++) {
            batchNumbers[i] = batch.get(i).path("number").asLong();
        }
        assertThat(batchNumbers).as("one saveAll's numbers, in the order of its invoices")
                .containsExactly(LongStream.rangeClosed(before + 2, before + BATCH + 1).toArray());

        AtomicLong rolledBack = new AtomicLong();
        assertThatThrownBy(() -> new TransactionTemplate(transactions).executeWithoutResult(status -> {
            Invoice saved = invoices.save(new Invoice("rolled back", List.of(InvoiceLine.of("x", BigDecimal.TEN))));
            rolledBack.set(saved.getNumber());
            throw new IllegalStateException("the payment failed");
        })).hasMessage("the payment failed");
        assertThat(rolledBack.get()).as("the number the rolled-back invoice took").isEqualTo(before + BATCH + 2);

        JsonNode last = body(post("/invoices", """
                {"customer": "globex", "lines": [{"product": "gear", "amount": 12.00}]}"""), 201);
        assertThat(last.path("number").asLong()).as("the next invoice takes the rolled-back number")
                .isEqualTo(rolledBack.get());

        JsonNode all = body(get("/invoices"), 200);
        List<Long> ids = new ArrayList<>();
        List<Long> lineIds = new ArrayList<>();
        List<Long> numbers = new ArrayList<>();
        all.forEach(invoice -> {
            ids.add(invoice.path("id").asLong());
            numbers.add(invoice.path("number").asLong());
            invoice.path("lines").forEach(line -> lineIds.add(line.path("id").asLong()));
        });
        assertThat(ids).as("committed invoices").hasSize((int) before + BATCH + 2);
        Concurrently.assertUnique(ids.stream().mapToLong(Long::longValue).toArray());
        assertThat(lineIds).as("their lines").hasSizeGreaterThanOrEqualTo(2 + BATCH + 1).doesNotContain(0L);
        Concurrently.assertUnique(lineIds.stream().mapToLong(Long::longValue).toArray());
        assertThat(numbers).as("committed invoice numbers")
                .containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, before + BATCH + 2).boxed().toList());
    }

    @Test
    void anUpdateKeepsTheInvoicesIdNumberAndLineIds() {
        Invoice saved = invoices.save(new Invoice("initech", List.of(InvoiceLine.of("stapler", BigDecimal.ONE))));
        long lineId = saved.getLines().get(0).id();

        saved.addLine(InvoiceLine.of("toner", BigDecimal.valueOf(2)));
        Invoice updated = invoices.save(saved);

        Invoice read = invoices.findById(saved.getId()).orElseThrow();
        assertThat(read.getNumber()).as("the number after an update").isEqualTo(saved.getNumber());
        assertThat(read.getLines()).extracting(InvoiceLine::id).as("line ids after an update")
                .containsExactly(lineId, updated.getLines().get(1).id());
        assertThat(updated.getLines().get(1).id()).as("the added line's id").isNotNull().isNotEqualTo(lineId);
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private JsonNode body(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as("status of %s: %s", response.uri(), response.body()).isEqualTo(status);
        return json.readTree(response.body());
    }
}
