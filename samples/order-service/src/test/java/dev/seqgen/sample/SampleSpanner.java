package dev.seqgen.sample;

import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;

import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The Cloud Spanner emulator for the {@code spanner} profile's suite: the one of {@code SPANNER_EMULATOR_HOST},
 * else one the tests start ({@link SpannerEmulatorHost}); without either each test is skipped with the reason (or
 * fails, when {@code SEQGENTEST_REQUIRE_DATABASES=true}). It looks before the first test instance is made, so
 * before Spring starts the application, and gives the suite a database of its own, new to the emulator (which
 * another run may be using at the same time): the Spanner JDBC driver creates it on the first connection
 * ({@code autoConfigEmulator=true}), the application its tables, so a run starts from empty tables and invoice
 * number 1.
 */
final class SampleSpanner implements TestInstancePreConstructCallback {

    static final String PROJECT = "seqgen-sample";
    static final String INSTANCE = "seqgen-sample";
    static final String DATABASE = "orders-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);

    private String host;

    @Override
    public synchronized void preConstructTestInstance(TestInstanceFactoryContext factoryContext,
            ExtensionContext context) {
        if (host == null) {
            host = SpannerEmulatorHost.host();
        }
        if (host == null || host.isBlank()) {
            Servers.missing(SpannerEmulatorHost.NO_EMULATOR);
        }
    }

    /** Points {@code spring.datasource.url} at the suite's database on the emulator. */
    void register(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> "jdbc:cloudspanner://" + host + "/projects/" + PROJECT
                + "/instances/" + INSTANCE + "/databases/" + DATABASE + "?autoConfigEmulator=true;retryAbortsInternally=false");
    }
}
