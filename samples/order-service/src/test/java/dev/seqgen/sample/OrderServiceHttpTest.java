package dev.seqgen.sample;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.sample.load.LoadClient;
import dev.seqgen.testing.Concurrently;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import dev.seqgen.SequenceRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The order service over real HTTP, on the database of the subclass. Tests share the application and its
 * data, so what they assert about the invoices of the default company this year holds for all such invoices any
 * test issued: the committed counters of that series are exactly 1..N. The invoices numbered per company and
 * year use companies and years of their own.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "seqgen.table=" + SampleDatabase.SEQUENCE_TABLE, "spring.jpa.hibernate.ddl-auto=create",
        "spring.main.banner-mode=off", "logging.level.root=warn" })
abstract class OrderServiceHttpTest {

    private static final int THREADS = 8;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    private int port;

    @Autowired
    private SequenceRegistry sequences;

    @Test
    void concurrentOrderCreationGivesEveryOrderAndLineItsOwnId() throws Exception {
        int ordersPerThread = 25;
        List<Long> lineIds = Collections.synchronizedList(new ArrayList<>());

        List<Long> orderNumbers = Collections.synchronizedList(new ArrayList<>());
        long[] orderIds = Concurrently.run(THREADS, thread -> {
            long[] ids = new long[ordersPerThread];
            for (int i = 0; i < ordersPerThread; i++) {
                JsonNode order = createOrder("customer-" + thread + "-" + i, 2);
                ids[i] = order.path("id").asLong();
                orderNumbers.add(order.path("number").asLong());
                order.path("lines").forEach(line -> lineIds.add(line.path("id").asLong()));
            }
            return ids;
        });

        Concurrently.assertUnique(orderIds);
        long[] numbers = Concurrently.assertUnique(orderNumbers.stream().mapToLong(Long::longValue).toArray());
        assertThat(numbers[0]).as("order numbers, from 1 up").isPositive();
        Concurrently.assertUnique(lineIds.stream().mapToLong(Long::longValue).toArray());
        assertThat(lineIds).hasSize(2 * orderIds.length);
        JsonNode order = body(get("/orders/" + orderIds[0]), 200);
        assertThat(order.path("id").asLong()).isEqualTo(orderIds[0]);
        assertThat(order.path("number").asLong()).isPositive();
        assertThat(order.path("lines")).hasSize(2);
        assertThat(order.path("total").decimalValue()).isEqualByComparingTo("49.95");
        assertThat(order.path("events").get(0).path("type").asString()).isEqualTo("CREATED");
        assertThat(order.path("events").get(0).path("id").asLong()).isPositive();
    }

    @Test
    void invoiceNumbersAreGaplessWithFailedInvoicesInterleaved() throws Exception {
        int ordersPerThread = 6;
        List<Long> rolledBack = Collections.synchronizedList(new ArrayList<>());

        long[] numbers = Concurrently.run(THREADS, thread -> {
            long[] taken = new long[ordersPerThread];
            for (int i = 0; i < ordersPerThread; i++) {
                long orderId = createOrder("invoiced-" + thread + "-" + i, 1).path("id").asLong();
                if (i % 2 == 0) {
                    JsonNode problem = body(post("/orders/" + orderId + "/invoice?simulateFailure=true", ""), 500);
                    assertThat(problem.path("title").asString()).isEqualTo("Invoice rolled back");
                    rolledBack.add(problem.path("rolledBackCounter").asLong());
                }
                taken[i] = body(post("/orders/" + orderId + "/invoice", ""), 201).path("counter").asLong();
            }
            return taken;
        });

        Concurrently.assertUnique(numbers);
        long[] committed = allInvoiceNumbers();
        Concurrently.assertContiguousFrom(1, committed);
        assertThat(committed).contains(numbers);
        assertThat(committed).as("every number a failed invoice took went to a committed one")
                .contains(rolledBack.stream().mapToLong(Long::longValue).toArray());
        assertThat(defaultSeriesOnTheEndpoint().path("strategy").asString()).isEqualTo("sync");
        assertThat(sequences.store().nextValue(defaultSeriesRow())).as("the series' row")
                .hasValue(committed.length + 1);
    }

    /**
     * Invoices of two companies dated in two years, from eight threads, every third one first rolled back after
     * it took its number: each (company, year) series holds exactly 1..n, formatted with its company and year,
     * and the rolled-back numbers went to committed invoices of the same series.
     */
    @Test
    void invoicesAreNumberedPerCompanyAndYearWithoutGaps() throws Exception {
        List<String> companies = List.of("NORTH", "SOUTH");
        List<LocalDate> dates = List.of(LocalDate.of(2025, 12, 31), LocalDate.of(2026, 1, 1));
        int invoicesPerThread = 4;
        Map<String, List<Long>> answered = new ConcurrentHashMap<>();
        Map<String, List<Long>> rolledBack = new ConcurrentHashMap<>();

        Concurrently.run(THREADS, thread -> {
            for (int i = 0; i < invoicesPerThread; i++) {
                String company = companies.get((thread + i) % 2);
                LocalDate date = dates.get((thread / 2 + i) % 2);
                String series = company + "/" + date.getYear();
                String path = "/orders/" + createOrder("series-" + thread + "-" + i, 1).path("id").asLong()
                        + "/invoice?company=" + company + "&issueDate=" + date;
                if (i % 3 == 0) {
                    JsonNode problem = body(post(path + "&simulateFailure=true", ""), 500);
                    assertThat(problem.path("rolledBackNumber").asString()).startsWith("INV-" + company + "-"
                            + date.getYear() + "-");
                    rolledBack.computeIfAbsent(series, key -> Collections.synchronizedList(new ArrayList<>()))
                            .add(problem.path("rolledBackCounter").asLong());
                }
                JsonNode invoice = body(post(path, ""), 201);
                assertThat(invoice.path("company").asString()).isEqualTo(company);
                assertThat(invoice.path("issueDate").asString()).isEqualTo(date.toString());
                answered.computeIfAbsent(series, key -> Collections.synchronizedList(new ArrayList<>()))
                        .add(invoice.path("counter").asLong());
            }
            return new long[0];
        });

        assertThat(answered).containsOnlyKeys("NORTH/2025", "NORTH/2026", "SOUTH/2025", "SOUTH/2026");
        for (String company : companies) {
            for (LocalDate date : dates) {
                String series = company + "/" + date.getYear();
                List<JsonNode> invoices = invoices("?company=" + company + "&year=" + date.getYear());
                long[] counters = invoices.stream().mapToLong(invoice -> invoice.path("counter").asLong()).toArray();
                Concurrently.assertContiguousFrom(1, counters);
                assertThat(counters).as(series).hasSize(answered.get(series).size())
                        .contains(answered.get(series).stream().mapToLong(Long::longValue).toArray())
                        .as(series + ": every number a failed invoice took went to a committed one")
                        .contains(rolledBack.getOrDefault(series, List.of()).stream().mapToLong(Long::longValue)
                                .toArray());
                for (JsonNode invoice : invoices) {
                    assertThat(invoice.path("number").asString()).isEqualTo(String.format("INV-%s-%d-%06d",
                            company, date.getYear(), invoice.path("counter").asLong()));
                    assertThat(invoice.path("issueDate").asString()).isEqualTo(date.toString());
                }
                assertThat(sequences.store().nextValue("invoices#" + series)).as("the series' row")
                        .hasValue(counters.length + 1);
            }
        }
        String first = invoices("?company=NORTH&year=2025").get(0).path("number").asString();
        assertThat(first).isEqualTo("INV-NORTH-2025-000001");
        assertThat(body(get("/invoices/" + first), 200).path("company").asString()).isEqualTo("NORTH");
        assertThat(problem(post("/orders/" + createOrder("bad-company", 1).path("id").asLong()
                + "/invoice?company=no/pe", ""), 400).path("title").asString()).isEqualTo("Invalid company");
    }

    @Test
    void aSecondInvoiceForAnOrderIsAConflictAndTakesNoNumber() throws Exception {
        JsonNode order = createOrder("twice", 1);
        long orderId = order.path("id").asLong();
        String number = body(post("/orders/" + orderId + "/invoice", ""), 201).path("number").asString();

        HttpResponse<String> second = post("/orders/" + orderId + "/invoice", "");

        JsonNode problem = problem(second, 409);
        assertThat(problem.path("detail").asString()).contains("Order " + orderId + " has been invoiced already");
        assertThat(body(get("/invoices/" + number), 200).path("orderId").asLong()).isEqualTo(orderId);
        JsonNode fetched = body(get("/orders/" + orderId), 200);
        assertThat(fetched.path("invoiceNumber").asString()).isEqualTo(number);
        assertThat(fetched.path("createdAt")).as("as stored").isEqualTo(order.path("createdAt"));
        Concurrently.assertContiguousFrom(1, allInvoiceNumbers());
    }

    @Test
    void invalidOrdersAnswer400WithProblemDetailsNamingEachField() throws Exception {
        HttpResponse<String> response = post("/orders",
                "{\"customer\":\" \",\"lines\":[{\"product\":\"tea\",\"quantity\":0,\"unitPrice\":-1}]}");

        JsonNode problem = problem(response, 400);
        assertThat(problem.path("title").asString()).isEqualTo("Invalid request");
        assertThat(problem.path("instance").asString()).isEqualTo("/orders");
        List<String> fields = new ArrayList<>();
        problem.path("errors").forEach(error -> fields.add(error.path("field").asString()));
        assertThat(fields).containsExactlyInAnyOrder("customer", "lines[0].quantity", "lines[0].unitPrice");

        assertThat(problem(post("/orders", "{\"customer\":\"no lines\",\"lines\":[]}"), 400).path("errors")
                .get(0).path("field").asString()).isEqualTo("lines");
        problem(post("/orders", "{not json"), 400);
        problem(get("/orders/not-a-number"), 400);
        problem(get("/orders?sort=nonsense"), 400);
    }

    @Test
    void unknownIdsAnswer404WithProblemDetails() throws Exception {
        assertThat(problem(get("/orders/987654321987"), 404).path("detail").asString())
                .isEqualTo("No order with id 987654321987.");
        problem(post("/orders/987654321987/invoice", ""), 404);
        assertThat(problem(get("/invoices/INV-ACME-1999-987654"), 404).path("title").asString())
                .isEqualTo("Invoice not found");
    }

    @Test
    void ordersAreListedPageByPage() throws Exception {
        for (int i = 0; i < 3; i++) {
            createOrder("paged-" + i, 1);
        }

        JsonNode page = body(get("/orders?page=1&size=2"), 200);

        assertThat(page.path("content")).hasSize(2);
        assertThat(page.path("page").path("number").asInt()).isEqualTo(1);
        assertThat(page.path("page").path("size").asInt()).isEqualTo(2);
        assertThat(page.path("page").path("totalElements").asLong()).isGreaterThanOrEqualTo(3);
        JsonNode first = body(get("/orders?size=2"), 200).path("content");
        assertThat(first.get(0).path("id").asLong()).as("newest id first")
                .isGreaterThan(first.get(1).path("id").asLong());
    }

    @Test
    void theActuatorShowsHealthEverySequenceAndTheMeters() throws Exception {
        long orderId = createOrder("metered", 2).path("id").asLong();
        body(post("/orders/" + orderId + "/invoice", ""), 201);

        JsonNode health = body(get("/actuator/health"), 200);
        assertThat(health.path("status").asString()).isEqualTo("UP");
        assertThat(health.path("components").path("seqgen").path("status").asString()).isEqualTo("UP");

        JsonNode sequences = body(get("/actuator/seqgen"), 200).path("sequences");
        assertThat(sequences.path("orders").path("strategy").asString()).isEqualTo("async-batch");
        assertThat(sequences.path("order_lines").path("strategy").asString()).isEqualTo("batch");
        assertThat(sequences.path("order_lines").path("blockSize").asLong()).isEqualTo(100);
        assertThat(sequences.path("invoices").path("openSeries").asInt()).as("numbered only in series: listed with"
                + " its series").isPositive();
        JsonNode invoices = body(get("/actuator/seqgen/invoices"), 200);
        assertThat(invoices.path("strategy").asString()).as("the annotation's").isEqualTo("sync");
        assertThat(invoices.path("inUse").asBoolean()).as("only its series are used").isFalse();
        assertThat(invoices.path("storeNextValue").isNumber()).as("no row of its own").isFalse();
        assertThat(invoices.path("openSeries").asInt()).isPositive();
        assertThat(invoices.path("seriesPage").asString()).isEqualTo("invoices/{prefix}");
        assertThat(defaultSeriesOnTheEndpoint().path("strategy").asString()).isEqualTo("sync");
        assertThat(sequences.path("order_event").path("strategy").asString())
                .as("set by seqgen.sequences.order_event.strategy alone").isEqualTo("async");
        assertThat(sequences.path("orders").path("counters").path("issued").asLong()).isPositive();

        String prometheus = get("/actuator/prometheus").body();
        for (String sequence : List.of("orders", "order_lines", "invoices", "order_event")) {
            assertThat(prometheus).containsPattern("seqgen_ids_issued_ids_total\\{[^}]*sequence=\"" + sequence + "\"");
        }
        assertThat(prometheus).contains("seqgen_reservations_seconds_count{")
                .contains("seqgen_block_remaining_ids{").contains("seqgen_capacity_used_ratio{");
    }

    @Test
    void theLoadClientFindsNoDuplicateIdsAndNoGapsInTheInvoices() throws Exception {
        // The duration only bounds a run gone wrong: the Spanner emulator, one read-write transaction at a time,
        // needs most of a minute for these orders on a busy machine; the other databases a few seconds.
        LoadClient.Report report = LoadClient.run(
                LoadClient.Options.parse("--url=http://localhost:" + port, "--orders=120", "--concurrency=6",
                        "--duration=180s", "--fail-every=4"));

        assertThat(report.checks()).allSatisfy(check -> assertThat(check.passed()).as(check.description()).isTrue());
        assertThat(report.checks()).anySatisfy(check -> assertThat(check.description())
                .isEqualTo("every rolled-back number went to a committed invoice (30 rollbacks)"));
    }

    /**
     * The committed counters of the default company's invoices of this year (the series of every invoice issued
     * without a company and a date), in order, through the paged API.
     */
    protected long[] allInvoiceNumbers() throws Exception {
        return invoices("?company=ACME&year=" + LocalDate.now(ZoneOffset.UTC).getYear()).stream()
                .mapToLong(invoice -> invoice.path("counter").asLong()).toArray();
    }

    /** The row of seqgen's table that counts {@link #allInvoiceNumbers()}. */
    protected String defaultSeriesRow() {
        return "invoices#ACME/" + LocalDate.now(ZoneOffset.UTC).getYear();
    }

    /** The default company's series of this year as the endpoint lists the invoices' series by key prefix. */
    private JsonNode defaultSeriesOnTheEndpoint() throws Exception {
        String key = defaultSeriesRow().substring("invoices#".length());
        return body(get("/actuator/seqgen/invoices/ACME"), 200).path("series").path(key);
    }

    /** The invoices that {@code query} selects ({@code ?company=...}), by number, through the paged API. */
    protected List<JsonNode> invoices(String query) throws Exception {
        List<JsonNode> invoices = new ArrayList<>();
        for (int page = 0; ; page++) {
            JsonNode body = body(get("/invoices" + query + "&size=100&page=" + page), 200);
            body.path("content").forEach(invoices::add);
            if (page + 1 >= body.path("page").path("totalPages").asInt()) {
                return invoices;
            }
        }
    }

    protected JsonNode createOrder(String customer, int lines) throws Exception {
        StringBuilder body = new StringBuilder("{\"customer\":\"" + customer + "\",\"lines\":[");
        for (int i = 1; i <= lines; i++) {
            body.append(i == 1 ? "" : ",").append("{\"product\":\"sku-").append(i).append("\",\"quantity\":")
                    .append(i).append(",\"unitPrice\":16.65}");
        }
        HttpResponse<String> response = post("/orders", body.append("]}").toString());
        JsonNode order = body(response, 201);
        assertThat(response.headers().firstValue("Location")).hasValue("/orders/" + order.path("id").asLong());
        return order;
    }

    protected JsonNode body(HttpResponse<String> response, int status) {
        assertThat(response.statusCode()).as(response.request().method() + " " + response.uri().getPath() + ": "
                + response.body()).isEqualTo(status);
        return json.readTree(response.body());
    }

    private JsonNode problem(HttpResponse<String> response, int status) {
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = body(response, status);
        assertThat(problem.path("status").asInt()).isEqualTo(status);
        return problem;
    }

    protected HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    protected HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        return http.send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(30));
    }
}
