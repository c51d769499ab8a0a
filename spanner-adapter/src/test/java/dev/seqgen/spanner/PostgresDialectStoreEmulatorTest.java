package dev.seqgen.spanner;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client-library store on a PostgreSQL-dialect database of the emulator: {@code RETURNING}, {@code $n}
 * parameters and PostgreSQL DDL. Creates the table on demand, reserves blocks, gives back, and serves every
 * strategy's values uniquely, SYNC inside the caller's read-write transaction.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("SpannerSequenceStore on spanner-emulator, PostgreSQL dialect")
class PostgresDialectStoreEmulatorTest {

    private static final long MAX = SequenceSettings.LARGEST_MAX_VALUE;

    private Spanner spanner;
    private DatabaseClient client;
    private String databaseId;

    @BeforeAll
    void createDatabase() throws Exception {
        String host = SpannerEmulatorHost.host();
        if (host == null) {
            return;
        }
        spanner = SpannerOptions.newBuilder().setProjectId(SpannerEmulator.PROJECT).setEmulatorHost(host)
                .setCredentials(NoCredentials.getInstance()).build().getService();
        // The instance is created by the tests' SpannerEmulator when missing; make sure it exists.
        try {
            spanner.getInstanceAdminClient().createInstance(com.google.cloud.spanner.InstanceInfo
                    .newBuilder(com.google.cloud.spanner.InstanceId.of(SpannerEmulator.PROJECT, SpannerEmulator.INSTANCE))
                    .setInstanceConfigId(com.google.cloud.spanner.InstanceConfigId.of(SpannerEmulator.PROJECT,
                            "emulator-config"))
                    .setDisplayName("seqgen tests").setNodeCount(1).build()).get(60, TimeUnit.SECONDS);
        } catch (Exception alreadyThere) {
            // created by another test class
        }
        databaseId = "pg-" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36).substring(0, 8);
        DatabaseId id = DatabaseId.of(SpannerEmulator.PROJECT, SpannerEmulator.INSTANCE, databaseId);
        spanner.getDatabaseAdminClient().createDatabase(spanner.getDatabaseAdminClient().newDatabaseBuilder(id)
                .setDialect(Dialect.POSTGRESQL).build(), List.of()).get(60, TimeUnit.SECONDS);
        client = spanner.getDatabaseClient(id);
    }

    @AfterAll
    void dropDatabase() {
        if (spanner != null) {
            try {
                spanner.getDatabaseAdminClient().dropDatabase(SpannerEmulator.INSTANCE, databaseId);
            } finally {
                spanner.close();
            }
        }
    }

    private SpannerSequenceStore store(String table) {
        if (client == null) {
            Servers.missing(SpannerEmulatorHost.NO_EMULATOR);
        }
        assertThat(client.getDialect()).isEqualTo(Dialect.POSTGRESQL);
        return SpannerSequenceStore.builder(client).dialect(Dialect.POSTGRESQL).table(table)
                .databaseAdminClient(spanner.getDatabaseAdminClient(), SpannerEmulator.INSTANCE, databaseId)
                .createTable(true).operationTimeout(SpannerEmulator.PATIENCE).build();
    }

    @Test
    @DisplayName("spanner-emulator postgresql: creates the table, reserves blocks and gives back")
    void createsTheTableReservesBlocksAndGivesBack() {
        SpannerSequenceStore store = store("seqgen_pg_store");
        store.createSequence("orders", 100);
        store.createSequence("orders", 5);
        assertThat(store.nextValue("orders")).hasValue(100);
        assertThat(store.reserve("orders", 10, MAX)).isEqualTo(new ReservedRange(100, 110));
        assertThat(store.reserve("orders", 10, 115)).isEqualTo(new ReservedRange(110, 116));
        assertThat(store.giveBack("orders", 116, 112)).isTrue();
        assertThat(store.giveBack("orders", 116, 100)).isFalse();
        assertThat(store.nextValue("orders")).hasValue(112);
        assertThat(store.advance("orders", 500)).isTrue();
        assertThat(store.advance("orders", 200)).as("never backwards").isFalse();
        assertThat(store.nextValue("orders")).hasValue(500);
    }

    @Test
    @DisplayName("spanner-emulator postgresql: every strategy's values are unique, SYNC gapless in the transaction")
    void everyStrategyIssuesUniqueValues() throws Exception {
        SpannerSequenceStore store = store("seqgen_pg_strategies");
        for (Strategy strategy : List.of(Strategy.ASYNC, Strategy.BATCH, Strategy.ASYNC_BATCH)) {
            SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(20).lowWatermark(5)
                    .acquireTimeout(Duration.ofSeconds(60)).build();
            try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
                Sequence ids = registry.sequence("ids_" + strategy.name().toLowerCase());
                long[] values = Concurrently.run(3, thread -> {
                    long[] mine = new long[30];
                    for (int i = 0; i < mine.length; i++) {
                        mine[i] = ids.next();
                    }
                    return mine;
                });
                assertThat(Concurrently.assertUnique(values)).as(strategy.name()).hasSize(90);
            }
        }
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.SYNC).build()).build()) {
            Sequence invoices = registry.sequence("invoices");
            long[] taken = client.readWriteTransaction().run(tx -> invoices.nextValuesInTransaction(tx, 3));
            assertThat(taken).containsExactly(1, 2, 3);
            assertThat(store.nextValue("invoices")).hasValue(4);
        }
    }
}
