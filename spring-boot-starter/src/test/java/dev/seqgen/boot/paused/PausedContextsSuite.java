package dev.seqgen.boot.paused;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;

import java.io.PrintWriter;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

/**
 * A test suite as an application's build runs it, in a JVM of its own ({@link PausedContextsTest} starts it): three
 * test classes over two context configurations, run in order by JUnit's launcher, so that Spring's test framework
 * pauses the first class's cached context for the second and resumes it for the third (under
 * {@code spring.test.context.cache.pause}, given as a system property). Each class takes values of two sequences
 * on one shared H2 row per sequence; both contexts' registries serve the same rows, as two JVMs would. It prints:
 * <ul>
 *   <li>{@code lifecycle <config> stopped|started}, when Spring stops or starts the context's pauseable beans;</li>
 *   <li>{@code suite: succeeded=<n> failed=<n>} and the failures;</li>
 *   <li>{@code values: taken=<n> distinct=<n>};</li>
 * </ul>
 * then exits with {@code System.exit}, as a test JVM does, leaving the cached contexts (paused or not) to the
 * shutdown hook, whose close reports follow on stdout.
 */
public final class PausedContextsSuite {

    /** Every value taken, as {@code sequence:value}: a value taken twice leaves {@code distinct} below {@code taken}. */
    static final Set<String> DISTINCT = ConcurrentHashMap.newKeySet();
    static final AtomicInteger TAKEN = new AtomicInteger();

    private PausedContextsSuite() {
    }

    public static void main(String[] args) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(FirstOnA.class), selectClass(SecondOnB.class), selectClass(ThirdOnA.class))
                .configurationParameter(ClassOrderer.DEFAULT_ORDER_PROPERTY_NAME,
                        ClassOrderer.OrderAnnotation.class.getName())
                .build(), listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        summary.printFailuresTo(out, 30);
        out.println("suite: succeeded=" + summary.getTestsSucceededCount() + " failed="
                + (summary.getTotalFailureCount() + summary.getTestsAbortedCount()));
        out.println("values: taken=" + TAKEN.get() + " distinct=" + DISTINCT.size());
        out.flush();
        System.exit(0);
    }

    static void take(SequenceRegistry registry) {
        for (String name : new String[] { "orders", "invoices" }) {
            for (int i = 0; i < 7; i++) {
                long value = registry.sequence(name).next();
                TAKEN.incrementAndGet();
                assertThat(DISTINCT.add(name + ":" + value)).as("%s %s taken once", name, value).isTrue();
            }
        }
    }

    @Order(1)
    @SpringBootTest(classes = ConfigA.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
    static class FirstOnA {

        @Autowired
        SequenceRegistry registry;

        @Test
        void takesValues() {
            take(registry);
        }
    }

    @Order(2)
    @SpringBootTest(classes = ConfigB.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
    static class SecondOnB {

        @Autowired
        SequenceRegistry registry;

        @Test
        void takesValues() {
            take(registry);
        }
    }

    @Order(3)
    @SpringBootTest(classes = ConfigA.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
    static class ThirdOnA {

        @Autowired
        SequenceRegistry registry;

        @Test
        void takesValuesAgainFromTheResumedContext() {
            take(registry);
        }
    }

    @SpringBootConfiguration
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class })
    static class ConfigA {

        @Bean
        static PrintingLifecycle printingLifecycle() {
            return new PrintingLifecycle("a");
        }
    }

    @SpringBootConfiguration
    @ImportAutoConfiguration({ DataSourceAutoConfiguration.class, SeqgenAutoConfiguration.class })
    static class ConfigB {

        @Bean
        static PrintingLifecycle printingLifecycle() {
            return new PrintingLifecycle("b");
        }
    }

    /** A pauseable bean that says when Spring stops and starts its context's lifecycle, to show a pause happened. */
    static final class PrintingLifecycle implements SmartLifecycle {

        private final String config;
        private volatile boolean running;

        PrintingLifecycle(String config) {
            this.config = config;
        }

        @Override
        public void start() {
            running = true;
            System.out.println("lifecycle " + config + " started");
        }

        @Override
        public void stop() {
            running = false;
            System.out.println("lifecycle " + config + " stopped");
        }

        @Override
        public boolean isRunning() {
            return running;
        }
    }
}
