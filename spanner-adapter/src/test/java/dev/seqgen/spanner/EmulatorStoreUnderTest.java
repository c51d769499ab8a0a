package dev.seqgen.spanner;

import com.google.cloud.NoCredentials;
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
import com.google.cloud.spanner.Statement;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.CallCounter;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;
import dev.seqgen.testing.TestDatabase;
import dev.seqgen.testing.conformance.StoreUnderTest;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spanner store on a database of the emulator with one dialect, a table of its own per store, for the conformance
 * kit. One database per dialect for the test JVM, created on first use and dropped by {@link #dropDatabases()}. The
 * emulator runs one read-write transaction at a time, so the load is small: this proves behaviour, never speed.
 */
final class EmulatorStoreUnderTest implements StoreUnderTest {

    private static final Load LOAD = new Load(500, 20, 6, 20, 4, 200, SpannerEmulator.PATIENCE);

    private static final Map<Dialect, String> DATABASES = new EnumMap<>(Dialect.class);
    private static Spanner spanner;

    private final Dialect dialect;
    private final String databaseId;
    private final DatabaseClient client;

    EmulatorStoreUnderTest(Dialect dialect) {
        this.dialect = dialect;
        this.databaseId = database(dialect);
        this.client = spanner.getDatabaseClient(DatabaseId.of(SpannerEmulator.PROJECT, SpannerEmulator.INSTANCE,
                databaseId));
    }

    private static synchronized String database(Dialect dialect) {
        String host = SpannerEmulatorHost.host();
        if (host == null || host.isBlank()) {
            Servers.missing(SpannerEmulatorHost.NO_EMULATOR);
        }
        if (spanner == null) {
            spanner = SpannerOptions.newBuilder().setProjectId(SpannerEmulator.PROJECT).setEmulatorHost(host)
                    .setCredentials(NoCredentials.getInstance())
                    .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(8).build())
                    .build().getService();
            try {
                await(spanner.getInstanceAdminClient().createInstance(InstanceInfo
                        .newBuilder(InstanceId.of(SpannerEmulator.PROJECT, SpannerEmulator.INSTANCE))
                        .setInstanceConfigId(InstanceConfigId.of(SpannerEmulator.PROJECT, "emulator-config"))
                        .setDisplayName("seqgen tests").setNodeCount(1).build()));
            } catch (SpannerException e) {
                if (e.getErrorCode() != ErrorCode.ALREADY_EXISTS) {
                    throw e;
                }
            }
        }
        return DATABASES.computeIfAbsent(dialect, d -> {
            String id = "kit-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36).substring(0, 8);
            DatabaseId databaseId = DatabaseId.of(SpannerEmulator.PROJECT, SpannerEmulator.INSTANCE, id);
            await(spanner.getDatabaseAdminClient().createDatabase(spanner.getDatabaseAdminClient()
                    .newDatabaseBuilder(databaseId).setDialect(d).build(), List.of()));
            return id;
        });
    }

    /** Drops the databases of every dialect and closes the client. */
    static synchronized void dropDatabases() {
        if (spanner == null) {
            return;
        }
        try {
            DATABASES.values().forEach(id -> spanner.getDatabaseAdminClient().dropDatabase(SpannerEmulator.INSTANCE,
                    id));
        } finally {
            DATABASES.clear();
            spanner.close();
            spanner = null;
        }
    }

    private SpannerSequenceStore.Builder builder(DatabaseClient databaseClient) {
        return SpannerSequenceStore.builder(databaseClient).dialect(dialect);
    }

    private SequenceStore store(String table) {
        return builder(client).table(table)
                .databaseAdminClient(spanner.getDatabaseAdminClient(), SpannerEmulator.INSTANCE, databaseId)
                .createTable(true).operationTimeout(SpannerEmulator.PATIENCE).build();
    }

    @Override
    public SequenceStore newStore() {
        assertThat(client.getDialect()).isEqualTo(dialect);
        return store(TestDatabase.uniqueTable());
    }

    @Override
    public SequenceStore sameRows(SequenceStore store) {
        return store(((SpannerSequenceStore) store).table());
    }

    @Override
    public Observed newObservedStore() {
        CallCounter counter = new CallCounter();
        return new Observed(builder(counter.counting(DatabaseClient.class, client)).build(), counter);
    }

    @Override
    public <T> T inTransaction(Function<Object, T> work) {
        try {
            return client.readWriteTransaction().run(work::apply);
        } catch (SpannerException e) {
            if (e.getCause() instanceof RuntimeException thrownByTheWork && !(e.getCause() instanceof SpannerException)) {
                throw thrownByTheWork;
            }
            throw e;
        }
    }

    @Override
    public boolean retriesCallerTransactions() {
        return true;
    }

    @Override
    public void setNextValue(SequenceStore store, String sequence, long nextValue) {
        String table = ((SpannerSequenceStore) store).table();
        Statement update = dialect == Dialect.POSTGRESQL
                ? Statement.newBuilder("UPDATE " + table + " SET next_value = $1 WHERE name = $2")
                        .bind("p1").to(nextValue).bind("p2").to(sequence).build()
                : Statement.newBuilder("UPDATE " + table + " SET next_value = @next WHERE name = @name")
                        .bind("next").to(nextValue).bind("name").to(sequence).build();
        long changed = client.readWriteTransaction().run(tx -> tx.executeUpdate(update));
        assertThat(changed).as("rows edited by hand").isEqualTo(1);
    }

    @Override
    public Load load() {
        return LOAD;
    }

    @Override
    public void dropAll() {
        // The tables go with the database, dropped once the test class ran.
    }

    @Override
    public String toString() {
        return "SpannerSequenceStore on spanner-emulator, " + dialect;
    }

    private static void await(java.util.concurrent.Future<?> operation) {
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
