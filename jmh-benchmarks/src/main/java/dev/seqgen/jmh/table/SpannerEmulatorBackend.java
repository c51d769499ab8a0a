package dev.seqgen.jmh.table;

import com.google.cloud.NoCredentials;
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
import dev.seqgen.jmh.Pause;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.spi.SequenceStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Cloud Spanner emulator, reached at {@code cloudspanner://host:port/projects/P/instances/I/databases/D};
 * the instance and database are created when missing. The emulator runs one read-write transaction at a time
 * and aborts the others, so its table shows the emulator, not Spanner: use it to try the tool, never to
 * measure. It has no latency to inject and no sequences that Hibernate's pooled optimizers could use.
 */
final class SpannerEmulatorBackend implements Backend {

    private static final Pattern URL = Pattern.compile(
            "cloudspanner://([^/]+)/projects/([^/]+)/instances/([^/]+)/databases/([^/?]+)");

    /** A reservation may wait through many aborts while the emulator serialises transactions. */
    private static final Duration OPERATION_TIMEOUT = Duration.ofMinutes(2);

    private final Spanner spanner;
    private final DatabaseClient client;
    private final SpannerSequenceStore store;

    SpannerEmulatorBackend(TableOptions options) {
        Matcher url = URL.matcher(options.url());
        if (!url.matches()) {
            throw new IllegalArgumentException("--url=" + options.url() + ": expected"
                    + " cloudspanner://host:port/projects/<project>/instances/<instance>/databases/<database>");
        }
        for (String variable : List.of("GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS",
                "GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW")) {
            if (!"false".equals(System.getenv(variable))) {
                throw new IllegalArgumentException("--store=spanner-emulator: export " + variable + "=false first;"
                        + " the emulator predates multiplexed sessions");
            }
        }
        String project = url.group(2);
        String instance = url.group(3);
        String database = url.group(4);
        this.spanner = SpannerOptions.newBuilder()
                .setProjectId(project)
                .setEmulatorHost(url.group(1))
                .setCredentials(NoCredentials.getInstance())
                .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(8).build())
                .build()
                .getService();
        createIfMissing(() -> spanner.getInstanceAdminClient().createInstance(InstanceInfo
                .newBuilder(InstanceId.of(project, instance))
                .setInstanceConfigId(InstanceConfigId.of(project, "emulator-config"))
                .setDisplayName("seqgen strategy table")
                .setNodeCount(1)
                .build()));
        createIfMissing(() -> spanner.getDatabaseAdminClient().createDatabase(instance, database, List.of()));
        this.client = spanner.getDatabaseClient(DatabaseId.of(project, instance, database));
        this.store = SpannerSequenceStore.builder(client)
                .databaseAdminClient(spanner.getDatabaseAdminClient(), instance, database)
                .createTable(true)
                .operationTimeout(OPERATION_TIMEOUT)
                .build();
    }

    private static void createIfMissing(java.util.function.Supplier<Future<?>> creation) {
        try {
            creation.get().get();
        } catch (SpannerException e) {
            if (e.getErrorCode() != ErrorCode.ALREADY_EXISTS) {
                throw e;
            }
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof SpannerException spannerError
                    && spannerError.getErrorCode() == ErrorCode.ALREADY_EXISTS)) {
                throw new IllegalStateException("could not prepare the emulator: " + e.getCause(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public SequenceStore store() {
        return store;
    }

    /** The emulator may abort the transaction; the runner then runs it again, taking a new value. */
    @Override
    public long inTransaction(ToLongFunction<Object> takeValue, long appNanos) {
        Long value = client.readWriteTransaction().run(transaction -> {
            long taken = takeValue.applyAsLong(transaction);
            Pause.nanos(appNanos);
            return taken;
        });
        return value;
    }

    @Override
    public boolean hasNativeSequences() {
        return false;
    }

    @Override
    public LongSupplier nativeSequence(int increment) {
        throw new UnsupportedOperationException("the Spanner emulator store has no sequences for this tool");
    }

    @Override
    public void close() {
        spanner.close();
    }
}
