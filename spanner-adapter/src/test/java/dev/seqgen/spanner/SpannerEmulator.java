package dev.seqgen.spanner;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseAdminClient;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.ErrorCode;
import com.google.cloud.spanner.InstanceConfigId;
import com.google.cloud.spanner.InstanceId;
import com.google.cloud.spanner.InstanceInfo;
import com.google.cloud.spanner.SessionPoolOptions;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.SpannerOptions;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * A fresh database on the Cloud Spanner emulator ({@link SpannerEmulatorHost}: {@code SPANNER_EMULATOR_HOST}, or one the
 * tests start), for one test class:
 * register it as a static {@code @RegisterExtension} field. Without that variable every test of the class is
 * skipped with the reason, or fails when {@code SEQGENTEST_REQUIRE_DATABASES=true} (as in CI), so CI can
 * never pass by skipping. Other modules' tests use it through this module's test-jar.
 */
public final class SpannerEmulator implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {

    public static final String PROJECT = "seqgen-test";
    public static final String INSTANCE = "seqgen-test";

    /** Operation and acquire timeout for tests on the emulator, which serialises read-write transactions. */
    public static final Duration PATIENCE = Duration.ofSeconds(60);

    private static final String NO_EMULATOR = SpannerEmulatorHost.NO_EMULATOR;

    private final Dialect dialect;
    private final List<String> ddl;
    private String host;
    private Spanner spanner;
    private String databaseId;
    private DatabaseClient client;

    /**
     * Creates the extension.
     *
     * @param ddl statements to create the database with, possibly none
     */
    public SpannerEmulator(String... ddl) {
        this(Dialect.GOOGLE_STANDARD_SQL, ddl);
    }

    /**
     * Creates the extension for a database of the given dialect.
     *
     * @param dialect the database's dialect
     * @param ddl statements to create the database with, possibly none
     */
    public SpannerEmulator(Dialect dialect, String... ddl) {
        this.dialect = dialect;
        this.ddl = List.of(ddl);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        host = SpannerEmulatorHost.host();
        if (host == null || host.isBlank()) {
            return;
        }
        spanner = SpannerOptions.newBuilder()
                .setProjectId(PROJECT)
                .setEmulatorHost(host)
                .setCredentials(NoCredentials.getInstance())
                .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(8).build())
                .build()
                .getService();
        databaseId = "seqgen-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
        createInstanceIfMissing();
        DatabaseId id = DatabaseId.of(PROJECT, INSTANCE, databaseId);
        DatabaseAdminClient admin = spanner.getDatabaseAdminClient();
        await(admin.createDatabase(admin.newDatabaseBuilder(id).setDialect(dialect).build(), ddl));
        client = spanner.getDatabaseClient(id);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (client == null) {
            Servers.missing(NO_EMULATOR);
        }
    }

    /** Drops the database and closes the client. */
    @Override
    public void afterAll(ExtensionContext context) {
        if (spanner == null) {
            return;
        }
        try {
            spanner.getDatabaseAdminClient().dropDatabase(INSTANCE, databaseId);
        } finally {
            spanner.close();
        }
    }

    /** The emulator's host:port. */
    public String host() {
        return host;
    }

    public DatabaseClient client() {
        return client;
    }

    public DatabaseAdminClient adminClient() {
        return spanner.getDatabaseAdminClient();
    }

    public String instanceId() {
        return INSTANCE;
    }

    public String databaseId() {
        return databaseId;
    }

    public Dialect dialect() {
        return dialect;
    }

    /**
     * A store over this database's table, created on demand. Its operation timeout is long: the emulator
     * runs one read-write transaction at a time and aborts the others, so under two dozen contending threads
     * a reservation can take seconds of the client's retries.
     */
    public SpannerSequenceStore store(String table) {
        return SpannerSequenceStore.builder(client)
                .dialect(dialect)
                .table(table)
                .databaseAdminClient(adminClient(), INSTANCE, databaseId)
                .createTable(true)
                .operationTimeout(PATIENCE)
                .build();
    }

    /**
     * Runs a transaction, again while Spanner aborts it (error code 10 of the JDBC driver, or ABORTED in a message),
     * at most 30 times: the emulator runs one read-write transaction at a time and aborts others, and an application
     * on Spanner retries an aborted transaction.
     *
     * @param transaction runs the whole transaction, from its start to its commit or rollback
     * @param <T> what it returns
     * @return what the attempt that was not aborted returned
     */
    public static <T> T retryingAborted(Supplier<T> transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                if (!aborted(e) || attempt == 30) {
                    throw e;
                }
            }
        }
    }

    private static boolean aborted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == 10
                    || String.valueOf(t.getMessage()).contains("ABORTED")) {
                return true;
            }
        }
        return false;
    }

    private void createInstanceIfMissing() {
        try {
            await(spanner.getInstanceAdminClient().createInstance(InstanceInfo
                    .newBuilder(InstanceId.of(PROJECT, INSTANCE))
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
