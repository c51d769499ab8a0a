package dev.seqgen.testing;

import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The servers a module's tests ran on, printed as one line when the test plan ends, so the console says whether
 * the PostgreSQL tests ran on the Debian server of CI, an embedded one or a container, and how many tests were
 * skipped and why. Registered for every module through {@code META-INF/services} in core's test-jar.
 *
 * <p>Tests are counted per database by their display names, which say the database they ran on (a rule of the
 * suite): {@code postgresql}, {@code mariadb}, {@code h2}, {@code hsqldb}, and {@code emulator} for the Spanner
 * emulator.
 */
public final class TestServers implements TestExecutionListener {

    private static final Map<String, String> SERVERS = new ConcurrentHashMap<>();
    private static final String[] DATABASES = {"postgresql", "mariadb", "h2", "hsqldb", "spanner"};

    private final Map<String, AtomicInteger> ranOn = new TreeMap<>();
    private final Map<String, AtomicInteger> skippedFor = new TreeMap<>();
    private final AtomicInteger tests = new AtomicInteger();
    private TestPlan plan;

    /** Records which server stands for a database in this JVM, e.g. "PostgreSQL 15.14 (SEQGENTEST_POSTGRES_URL)". */
    static void used(String database, String server) {
        SERVERS.putIfAbsent(database, server);
    }

    /** The server that stood for a database in this JVM, if any test used one. */
    public static String server(String database) {
        return SERVERS.get(database);
    }

    @Override
    public void testPlanExecutionStarted(TestPlan testPlan) {
        plan = testPlan;
    }

    @Override
    public synchronized void executionSkipped(TestIdentifier test, String reason) {
        skippedFor.computeIfAbsent(reason, r -> new AtomicInteger()).addAndGet(Math.max(1, countTests(test)));
    }

    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (!test.isTest()) {
            return;
        }
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            String reason = result.getThrowable().map(Throwable::getMessage).orElse("aborted");
            skippedFor.computeIfAbsent(reason, r -> new AtomicInteger()).incrementAndGet();
            return;
        }
        tests.incrementAndGet();
        String path = displayPath(test).toLowerCase(Locale.ROOT);
        for (String database : DATABASES) {
            // Spanner tests run on the emulator or on the client library's mock server; only the former counts.
            if (path.contains(database.equals("spanner") ? "emulator" : database)) {
                ranOn.computeIfAbsent(database, d -> new AtomicInteger()).incrementAndGet();
            }
        }
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        if (tests.get() == 0 && skippedFor.isEmpty()) {
            return;
        }
        StringBuilder line = new StringBuilder("seqgen test servers: ").append(tests).append(" test(s) run");
        ranOn.forEach((database, count) -> line.append("; ").append(count).append(" on ")
                .append(SERVERS.getOrDefault(database, database.equals("h2") ? "H2 in process"
                        : database.equals("hsqldb") ? "HSQLDB in process" : database)));
        int skipped = skippedFor.values().stream().mapToInt(AtomicInteger::get).sum();
        line.append("; ").append(skipped).append(" skipped");
        skippedFor.forEach((reason, count) -> line.append(" [").append(count).append(": ").append(reason).append(']'));
        System.out.println(line);
    }

    private String displayPath(TestIdentifier test) {
        StringBuilder path = new StringBuilder(test.getDisplayName());
        TestIdentifier current = test;
        while (plan != null) {
            TestIdentifier parent = plan.getParent(current).orElse(null);
            if (parent == null) {
                break;
            }
            path.append(' ').append(parent.getDisplayName());
            current = parent;
        }
        return path.toString();
    }

    private int countTests(TestIdentifier container) {
        if (plan == null) {
            return 1;
        }
        return (int) plan.getDescendants(container).stream().filter(TestIdentifier::isTest).count();
    }
}
