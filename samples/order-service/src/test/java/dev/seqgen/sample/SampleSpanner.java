package dev.seqgen.sample;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.ErrorCode;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.SpannerOptions;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestInstanceFactoryContext;
import org.junit.jupiter.api.extension.TestInstancePreConstructCallback;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The Cloud Spanner emulator of {@code SPANNER_EMULATOR_HOST} for the {@code spanner} profile's suite; without
 * it each test is skipped with the reason (or fails, when {@code SEQGEN_TEST_REQUIRE_DATABASES=true}). It
 * looks before the first test instance is made, so before Spring starts the application, and drops the
 * suite's database if an earlier run left it: the application's emulator bootstrap creates it again, empty,
 * so a run starts from invoice number 1.
 */
final class SampleSpanner implements TestInstancePreConstructCallback {

    static final String PROJECT = "seqgen-sample";
    static final String INSTANCE = "seqgen-sample";
    static final String DATABASE = "order-service-tests";

    private static final String NO_EMULATOR = SpannerEmulatorHost.NO_EMULATOR;

    private String host;

    private boolean checked;

    @Override
    public synchronized void preConstructTestInstance(TestInstanceFactoryContext factoryContext,
            ExtensionContext context) {
        String emulator = SpannerEmulatorHost.host();
        if (emulator == null || emulator.isBlank()) {
            Servers.missing(NO_EMULATOR);
        }
        if (!checked) {
            dropDatabaseIfPresent(emulator);
            checked = true;
            host = emulator;
        }
    }

    private static void dropDatabaseIfPresent(String emulator) {
        try (Spanner spanner = SpannerOptions.newBuilder().setProjectId(PROJECT).setEmulatorHost(emulator)
                .setCredentials(NoCredentials.getInstance()).build().getService()) {
            spanner.getDatabaseAdminClient().dropDatabase(INSTANCE, DATABASE);
        } catch (SpannerException e) {
            if (e.getErrorCode() != ErrorCode.NOT_FOUND) {
                throw e;
            }
        }
    }

    /** Points {@code seqgen.spanner.*} at the emulator and the suite's database. */
    void register(DynamicPropertyRegistry registry) {
        registry.add("seqgen.spanner.emulator-host", () -> host);
        registry.add("seqgen.spanner.project-id", () -> PROJECT);
        registry.add("seqgen.spanner.instance-id", () -> INSTANCE);
        registry.add("seqgen.spanner.database-id", () -> DATABASE);
    }
}
