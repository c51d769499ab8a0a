package dev.seqgen.spanner;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseAdminClient;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.ErrorCode;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.SessionPoolOptions;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.SpannerOptions;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A fresh database on the Cloud Spanner emulator named by {@code SPANNER_EMULATOR_HOST}, for one test class.
 * Without that variable the test is skipped with the reason, or fails when
 * {@code SEQGEN_TEST_REQUIRE_DATABASES=true} (as in CI), so CI can never pass by skipping.
 */
final class SpannerEmulator implements AutoCloseable {

    static final String PROJECT = "seqgen-test";
    static final String INSTANCE = "seqgen-test";

    private final Spanner spanner;
    private final String databaseId;
    private final DatabaseClient client;

    private SpannerEmulator(String host, List<String> ddl) {
        this.spanner = SpannerOptions.newBuilder()
                .setProjectId(PROJECT)
                .setEmulatorHost(host)
                .setCredentials(NoCredentials.getInstance())
                .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(8).build())
                .build()
                .getService();
        this.databaseId = "seqgen-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
        createInstanceIfMissing();
        await(spanner.getDatabaseAdminClient().createDatabase(INSTANCE, databaseId, ddl));
        this.client = spanner.getDatabaseClient(DatabaseId.of(PROJECT, INSTANCE, databaseId));
    }

    /**
     * Creates a database with the given schema on the emulator, or skips (fails, in CI) the calling test.
     *
     * @param ddl statements to create the database with, possibly none
     */
    static SpannerEmulator newDatabase(String... ddl) {
        String host = System.getenv("SPANNER_EMULATOR_HOST");
        if (host == null || host.isBlank()) {
            String reason = "no Cloud Spanner emulator: set SPANNER_EMULATOR_HOST (such as localhost:9010) to the"
                    + " host:port of a running emulator";
            if (Boolean.parseBoolean(System.getenv("SEQGEN_TEST_REQUIRE_DATABASES"))) {
                Assertions.fail(reason + " (SEQGEN_TEST_REQUIRE_DATABASES=true: a missing server is a failure)");
            }
            Assumptions.abort(reason);
        }
        return new SpannerEmulator(host, List.of(ddl));
    }

    DatabaseClient client() {
        return client;
    }

    DatabaseAdminClient adminClient() {
        return spanner.getDatabaseAdminClient();
    }

    String instanceId() {
        return INSTANCE;
    }

    String databaseId() {
        return databaseId;
    }

    /** A store over this database's table, created on demand. */
    SpannerSequenceStore store(String table) {
        return SpannerSequenceStore.builder(client)
                .table(table)
                .databaseAdminClient(adminClient(), INSTANCE, databaseId)
                .createTable(true)
                .build();
    }

    /** Drops the database and closes the client. */
    @Override
    public void close() {
        try {
            spanner.getDatabaseAdminClient().dropDatabase(INSTANCE, databaseId);
        } finally {
            spanner.close();
        }
    }

    private void createInstanceIfMissing() {
        try {
            await(spanner.getInstanceAdminClient().createInstance(InstanceInfo.newBuilder(InstanceId.of(PROJECT, INSTANCE))
                    .setInstanceConfigId(InstanceConfigId.of(PROJECT, "emulator-config"))
                    .setDisplayName("seqgen tests")
                    .setNodeCount(1)
                    .build()));
        } catch (SpannerException e) {
            if (e.getErrorCode() != ErrorCode.ALREADY_EXISTS) {
                throw e;
            }
        }
    }

    private static void await(Future<?> operation) {
        try {
            operation.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SpannerException spannerError) {
                throw spannerError;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
