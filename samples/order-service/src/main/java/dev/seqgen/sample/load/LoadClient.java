package dev.seqgen.sample.load;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Drives a running order service from several threads: each creates an order with one to three lines and
 * issues its invoice; every {@code --fail-every}th order first gets a deliberately failing invoice request,
 * whose number the rollback gives back. Every invoice is issued by company {@value #COMPANY} and dated the day the
 * run started (UTC), so all of them fall in one series of the service's per-company, per-year numbering. Prints
 * throughput and latency percentiles per operation, then the checks: no order id (or line id) twice, and the
 * counters of that series, read back through {@code GET /invoices?company=ACME&year=...}, exactly 1..N.
 *
 * <p>Bounded on purpose: at most {@value #MAX_ORDERS} orders, {@value #MAX_CONCURRENCY} threads and
 * {@link #MAX_DURATION}, and only against a loopback address.
 *
 * <pre>
 * ./mvnw -q -B -pl samples/order-service exec:java -Dexec.args="--orders=2000 --concurrency=8"
 *
 * --url=http://localhost:8080   the service (loopback only)
 * --orders=1000                 orders to create, 1..100000
 * --concurrency=8               client threads, 1..64
 * --duration=60s                stop creating orders after this, 1s..10m
 * --fail-every=10               every n-th order gets a failing invoice request first; 0: none
 * </pre>
 *
 * Exits with 0 when every check passes, 1 when one fails, 2 on bad arguments.
 */
public final class LoadClient {

    /** Largest {@code --orders}. */
    static final int MAX_ORDERS = 100_000;

    /** Largest {@code --concurrency}. */
    static final int MAX_CONCURRENCY = 64;

    /** Longest {@code --duration}. */
    static final Duration MAX_DURATION = Duration.ofMinutes(10);

    /** Page size for reading the invoices back: the service's largest. */
    private static final int PAGE_SIZE = 100;

    /** The issuing company of every invoice of a run. */
    static final String COMPANY = "ACME";

    private final Options options;

    /** The issue date of every invoice of a run: one series, even across midnight. */
    private final LocalDate issueDate = LocalDate.now(ZoneOffset.UTC);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final JsonMapper json = JsonMapper.builder().build();

    private LoadClient(Options options) {
        this.options = options;
    }

    public static void main(String[] args) throws InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Report report = run(options);
        report.print(System.out);
        System.exit(report.passed() ? 0 : 1);
    }

    /** Runs the load and the checks. */
    public static Report run(Options options) throws InterruptedException {
        return new LoadClient(options).run();
    }

    private Report run() throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        long start = System.nanoTime();
        long deadline = start + options.duration().toNanos();
        ExecutorService threads = Executors.newFixedThreadPool(options.concurrency());
        List<Future<Results>> futures = new ArrayList<>();
        for (int t = 0; t < options.concurrency(); t++) {
            futures.add(threads.submit(() -> work(next, deadline)));
        }
        Results all = new Results();
        try {
            for (Future<Results> future : futures) {
                all.add(future.get());
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("a client thread failed", e.getCause());
        } finally {
            threads.shutdownNow();
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        boolean stoppedByTime = next.get() < options.orders();
        List<Long> serviceInvoices;
        String readError = null;
        try {
            serviceInvoices = readAllInvoiceNumbers();
        } catch (IOException | RuntimeException e) {
            serviceInvoices = List.of();
            readError = e.toString();
        }
        return new Report(options, elapsed, stoppedByTime, all, serviceInvoices, readError);
    }

    private Results work(AtomicInteger next, long deadline) throws InterruptedException {
        Results results = new Results();
        int n;
        while (System.nanoTime() < deadline && (n = next.getAndIncrement()) < options.orders()) {
            try {
                long orderId = createOrder(n, results);
                if (orderId < 0) {
                    continue;
                }
                if (options.failEvery() > 0 && n % options.failEvery() == 0) {
                    failingInvoice(orderId, results);
                }
                issueInvoice(orderId, results);
            } catch (IOException | RuntimeException e) {
                results.error(e.toString());
            }
        }
        return results;
    }

    private long createOrder(int n, Results results) throws IOException, InterruptedException {
        StringBuilder lines = new StringBuilder();
        int lineCount = 1 + ThreadLocalRandom.current().nextInt(3);
        for (int i = 0; i < lineCount; i++) {
            lines.append(i == 0 ? "" : ",").append("{\"product\":\"sku-").append(i + 1)
                    .append("\",\"quantity\":").append(1 + i).append(",\"unitPrice\":9.99}");
        }
        String body = "{\"customer\":\"load-client-" + n + "\",\"lines\":[" + lines + "]}";
        long start = System.nanoTime();
        HttpResponse<String> response = post("/orders", body);
        long latency = System.nanoTime() - start;
        if (response.statusCode() != 201) {
            results.error("POST /orders: " + response.statusCode() + " " + response.body());
            return -1;
        }
        results.createLatencies.add(latency);
        JsonNode order = json.readTree(response.body());
        results.orderIds.add(order.path("id").asLong());
        order.path("lines").forEach(line -> results.lineIds.add(line.path("id").asLong()));
        return order.path("id").asLong();
    }

    private void failingInvoice(long orderId, Results results) throws IOException, InterruptedException {
        long start = System.nanoTime();
        HttpResponse<String> response = post(invoicePath(orderId) + "&simulateFailure=true", "");
        long latency = System.nanoTime() - start;
        JsonNode problem = json.readTree(response.body());
        if (response.statusCode() != 500 || !problem.has("rolledBackNumber")) {
            results.error("POST /orders/" + orderId + "/invoice?simulateFailure=true: expected 500 with"
                    + " rolledBackNumber, got " + response.statusCode() + " " + response.body());
            return;
        }
        results.failingLatencies.add(latency);
        results.rolledBackNumbers.add(problem.path("rolledBackCounter").asLong());
    }

    private void issueInvoice(long orderId, Results results) throws IOException, InterruptedException {
        long start = System.nanoTime();
        HttpResponse<String> response = post(invoicePath(orderId), "");
        long latency = System.nanoTime() - start;
        if (response.statusCode() != 201) {
            results.error("POST /orders/" + orderId + "/invoice: " + response.statusCode() + " " + response.body());
            return;
        }
        results.invoiceLatencies.add(latency);
        results.invoiceNumbers.add(json.readTree(response.body()).path("counter").asLong());
    }

    private String invoicePath(long orderId) {
        return "/orders/" + orderId + "/invoice?company=" + COMPANY + "&issueDate=" + issueDate;
    }

    /** The counters of the run's series, in order, through {@code GET /invoices}. */
    private List<Long> readAllInvoiceNumbers() throws IOException, InterruptedException {
        List<Long> numbers = new ArrayList<>();
        for (int page = 0; ; page++) {
            HttpResponse<String> response = http.send(
                    request("/invoices?company=" + COMPANY + "&year=" + issueDate.getYear() + "&sort=number&size="
                            + PAGE_SIZE + "&page=" + page).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IOException("GET /invoices: " + response.statusCode() + " " + response.body());
            }
            JsonNode body = json.readTree(response.body());
            body.path("content").forEach(invoice -> numbers.add(invoice.path("counter").asLong()));
            if (page + 1 >= body.path("page").path("totalPages").asLong()) {
                return numbers;
            }
        }
    }

    private HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
        HttpRequest request = request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(options.url().resolve(path)).timeout(Duration.ofSeconds(30));
    }

    /**
     * What to run.
     *
     * @param url the service, on a loopback address
     * @param orders orders to create, 1 to {@value #MAX_ORDERS}
     * @param concurrency client threads, 1 to {@value #MAX_CONCURRENCY}
     * @param duration time after which no more orders are started, 1 s to 10 min
     * @param failEvery every n-th order gets a failing invoice request first; 0 for none
     */
    public record Options(URI url, int orders, int concurrency, Duration duration, int failEvery) {

        public Options {
            requireLoopback(url);
            require(orders >= 1 && orders <= MAX_ORDERS, "--orders must be 1.." + MAX_ORDERS + ", not " + orders);
            require(concurrency >= 1 && concurrency <= MAX_CONCURRENCY,
                    "--concurrency must be 1.." + MAX_CONCURRENCY + ", not " + concurrency);
            require(duration.compareTo(Duration.ofSeconds(1)) >= 0 && duration.compareTo(MAX_DURATION) <= 0,
                    "--duration must be 1s..10m, not " + duration);
            require(failEvery >= 0, "--fail-every must be >= 0, not " + failEvery);
        }

        /** Parses {@code --name=value} arguments; see the class javadoc for names and defaults. */
        public static Options parse(String... args) {
            URI url = URI.create("http://localhost:8080");
            int orders = 1000;
            int concurrency = 8;
            Duration duration = Duration.ofSeconds(60);
            int failEvery = 10;
            for (String arg : args) {
                int equals = arg.indexOf('=');
                require(arg.startsWith("--") && equals > 2, "arguments are --name=value, not " + arg);
                String name = arg.substring(2, equals);
                String value = arg.substring(equals + 1);
                try {
                    switch (name) {
                        case "url" -> url = URI.create(value);
                        case "orders" -> orders = Integer.parseInt(value);
                        case "concurrency" -> concurrency = Integer.parseInt(value);
                        case "duration" -> duration = DurationStyle.detectAndParse(value);
                        case "fail-every" -> failEvery = Integer.parseInt(value);
                        default -> throw new IllegalArgumentException("unknown option --" + name
                                + " (known: --url, --orders, --concurrency, --duration, --fail-every)");
                    }
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--" + name + " must be an integer, not " + value);
                }
            }
            return new Options(url, orders, concurrency, duration, failEvery);
        }

        private static void requireLoopback(URI url) {
            require(("http".equals(url.getScheme()) || "https".equals(url.getScheme())) && url.getHost() != null,
                    "--url must be an http(s) URL with a host, not " + url);
            try {
                for (InetAddress address : InetAddress.getAllByName(url.getHost())) {
                    require(address.isLoopbackAddress(), "--url must point to this machine (a loopback address),"
                            + " but " + url.getHost() + " is " + address.getHostAddress());
                }
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("--url: unknown host " + url.getHost(), e);
            }
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException(message);
            }
        }
    }

    /** What the client threads saw. */
    static final class Results {

        /** Unexpected answers kept for the report; the count goes on beyond them. */
        private static final int ERRORS_KEPT = 10;

        final List<Long> createLatencies = new ArrayList<>();
        final List<Long> invoiceLatencies = new ArrayList<>();
        final List<Long> failingLatencies = new ArrayList<>();
        final List<Long> orderIds = new ArrayList<>();
        final List<Long> lineIds = new ArrayList<>();
        final List<Long> invoiceNumbers = new ArrayList<>();
        final List<Long> rolledBackNumbers = new ArrayList<>();
        final List<String> errors = new ArrayList<>();
        int errorCount;

        void error(String message) {
            errorCount++;
            if (errors.size() < ERRORS_KEPT) {
                errors.add(message);
            }
        }

        void add(Results other) {
            createLatencies.addAll(other.createLatencies);
            invoiceLatencies.addAll(other.invoiceLatencies);
            failingLatencies.addAll(other.failingLatencies);
            orderIds.addAll(other.orderIds);
            lineIds.addAll(other.lineIds);
            invoiceNumbers.addAll(other.invoiceNumbers);
            rolledBackNumbers.addAll(other.rolledBackNumbers);
            other.errors.stream().limit(ERRORS_KEPT - errors.size()).forEach(errors::add);
            errorCount += other.errorCount;
        }
    }

    /** Throughput, latencies and checks of one run. */
    public static final class Report {

        private final Options options;
        private final Duration elapsed;
        private final boolean stoppedByTime;
        private final Results results;
        private final List<Check> checks = new ArrayList<>();

        Report(Options options, Duration elapsed, boolean stoppedByTime, Results results,
                List<Long> serviceInvoices, String readError) {
            this.options = options;
            this.elapsed = elapsed;
            this.stoppedByTime = stoppedByTime;
            this.results = results;
            checks.add(new Check("no unexpected answers (" + results.errorCount + ")", results.errorCount == 0));
            checks.add(new Check("order ids unique (" + results.orderIds.size() + " orders)",
                    unique(results.orderIds)));
            checks.add(new Check("order line ids unique (" + results.lineIds.size() + " lines)",
                    unique(results.lineIds)));
            long n = serviceInvoices.size();
            boolean gapless = readError == null;
            for (int i = 0; gapless && i < n; i++) {
                gapless = serviceInvoices.get(i) == i + 1;
            }
            checks.add(new Check(readError != null ? "invoice numbers readable: " + readError
                    : "invoice numbers of the series are 1.." + n + " without gaps", gapless));
            Set<Long> committed = new HashSet<>(serviceInvoices);
            checks.add(new Check("every invoice number answered to this client is committed ("
                    + results.invoiceNumbers.size() + ")", unique(results.invoiceNumbers)
                    && committed.containsAll(results.invoiceNumbers)));
            checks.add(new Check("every rolled-back number went to a committed invoice ("
                    + results.rolledBackNumbers.size() + " rollbacks)",
                    committed.containsAll(results.rolledBackNumbers)));
        }

        /** Whether every check passed. */
        public boolean passed() {
            return checks.stream().allMatch(Check::passed);
        }

        /** The checks, in the order printed. */
        public List<Check> checks() {
            return List.copyOf(checks);
        }

        /** Prints the run, the table of operations and the checks. */
        public void print(PrintStream out) {
            double seconds = elapsed.toNanos() / 1e9;
            out.printf(Locale.ROOT, "%d orders from %d threads against %s in %.1f s%s%n%n",
                    results.orderIds.size(), options.concurrency(), options.url(), seconds,
                    stoppedByTime ? " (stopped by --duration=" + options.duration() + ")" : "");
            out.printf(Locale.ROOT, "%-26s %9s %9s %9s %9s %9s %9s%n", "operation", "requests", "req/s", "p50 ms",
                    "p90 ms", "p99 ms", "max ms");
            row(out, "create order", results.createLatencies, seconds);
            row(out, "issue invoice", results.invoiceLatencies, seconds);
            row(out, "failing invoice (500)", results.failingLatencies, seconds);
            out.println();
            for (Check check : checks) {
                out.printf("%-4s %s%n", check.passed() ? "ok" : "FAIL", check.description());
            }
            results.errors.forEach(error -> out.println("     " + error));
        }

        private static void row(PrintStream out, String operation, List<Long> latencies, double seconds) {
            long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
            out.printf(Locale.ROOT, "%-26s %9d %9.1f %9.2f %9.2f %9.2f %9.2f%n", operation, sorted.length,
                    sorted.length / seconds, millis(sorted, 0.50), millis(sorted, 0.90), millis(sorted, 0.99),
                    millis(sorted, 1.0));
        }

        /** The nearest-rank percentile in milliseconds, 0 for no values. */
        private static double millis(long[] sorted, double percentile) {
            if (sorted.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(percentile * sorted.length);
            return sorted[Math.max(rank, 1) - 1] / 1e6;
        }

        private static boolean unique(List<Long> values) {
            return new HashSet<>(values).size() == values.size();
        }
    }

    /** One check of the report. */
    public record Check(String description, boolean passed) {
    }
}
