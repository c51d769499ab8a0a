package dev.seqgen.spanner;

import com.google.api.gax.grpc.testing.LocalChannelProvider;
import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.AbortedException;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.MockSpannerServiceImpl.SimulatedExecutionTime;
import com.google.cloud.spanner.MockSpannerServiceImpl.StatementResult;
import com.google.cloud.spanner.SessionPoolOptions;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import com.google.cloud.spanner.Statement;
import com.google.cloud.spanner.TransactionContext;
import com.google.cloud.spanner.TransactionManager;
import com.google.spanner.v1.BeginTransactionRequest;
import com.google.spanner.v1.CommitRequest;
import com.google.spanner.v1.ExecuteSqlRequest;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceStats;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStoreException;
import dev.seqgen.testing.Concurrently;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static dev.seqgen.spanner.CounterRowMockSpanner.GIVE_BACK_SQL;
import static dev.seqgen.spanner.CounterRowMockSpanner.RESERVE_SQL;
import static dev.seqgen.spanner.CounterRowMockSpanner.SELECT_SQL;
import static dev.seqgen.spanner.CounterRowMockSpanner.nextValueRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The store against the Spanner client's in-process mock server, where the statements sent can be seen and
 * aborts, errors and latency can be injected. The mock answers each statement with a registered result; it
 * runs no SQL.
 */
@DisplayName("SpannerSequenceStore on mock-server")
class SpannerSequenceStoreMockServerTest {

    private static final long MAX = SequenceSettings.LARGEST_MAX_VALUE;

    private CounterRowMockSpanner mockSpanner;
    private Server server;
    private Spanner spanner;
    private DatabaseClient client;
    private SpannerSequenceStore store;

    /** A fresh server per test: the mock keeps registered results for as long as it lives. */
    @BeforeEach
    void startServerAndConnect() throws IOException {
        mockSpanner = new CounterRowMockSpanner();
        mockSpanner.setAbortProbability(0.0D);
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(mockSpanner).build().start();
        spanner = SpannerOptions.newBuilder()
                .setProjectId("seqgen-test")
                .setEmulatorHost(null)
                .setChannelProvider(LocalChannelProvider.create(name))
                .setCredentials(NoCredentials.getInstance())
                .setBuiltInMetricsEnabled(false)
                .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(4).build())
                .build()
                .getService();
        client = spanner.getDatabaseClient(DatabaseId.of("seqgen-test", "seqgen-test", "seqgen"));
        store = SpannerSequenceStore.builder(client).build();
    }

    @AfterEach
    void disconnectAndStopServer() throws InterruptedException {
        spanner.close();
        server.shutdown();
        server.awaitTermination();
    }

    @Test
    @DisplayName("mock-server: a reservation is one UPDATE ... THEN RETURN and one commit")
    void aReservationIsOneUpdateThenReturnAndOneCommit() {
        mockSpanner.putStatementResult(StatementResult.query(reserve("orders", 1000, MAX - 999), nextValueRows(1001)));

        assertThat(store.reserve("orders", 1000, MAX)).isEqualTo(new ReservedRange(1, 1001));

        List<ExecuteSqlRequest> statements = mockSpanner.getRequestsOfType(ExecuteSqlRequest.class);
        assertThat(statements).extracting(ExecuteSqlRequest::getSql).containsExactly(RESERVE_SQL);
        assertThat(statements.get(0).getParams().getFieldsMap()).containsOnlyKeys("name", "count", "lastStart");
        assertThat(statements.get(0).getTransaction().hasBegin()).as("transaction begun inline").isTrue();
        assertThat(mockSpanner.countRequestsOfType(BeginTransactionRequest.class)).isZero();
        assertThat(mockSpanner.countRequestsOfType(CommitRequest.class)).isEqualTo(1);
    }

    @Test
    @DisplayName("mock-server: near the maximum, the row is read and the rest taken with the same UPDATE, in one"
            + " transaction")
    void nearTheMaximumTheRowIsReadAndTheRestTakenInOneTransaction() {
        mockSpanner.putStatementResults(
                StatementResult.query(reserve("orders", 10, 91), nextValueRows()),
                StatementResult.query(select("orders"), nextValueRows(95)),
                StatementResult.query(reserve("orders", 6, 95), nextValueRows(101)));

        assertThat(store.reserve("orders", 10, 100)).isEqualTo(new ReservedRange(95, 101));

        assertThat(mockSpanner.getRequestsOfType(ExecuteSqlRequest.class)).extracting(ExecuteSqlRequest::getSql)
                .containsExactly(RESERVE_SQL, SELECT_SQL, RESERVE_SQL);
        assertThat(mockSpanner.countRequestsOfType(CommitRequest.class)).isEqualTo(1);
    }

    @Test
    @DisplayName("mock-server: an aborted reservation is retried by the client to exactly one committed block")
    void anAbortedReservationIsRetriedToExactlyOneCommittedBlock() {
        mockSpanner.putStatementResult(StatementResult.query(reserve("orders", 1000, MAX - 999), nextValueRows(1001)));
        mockSpanner.abortNextStatement();

        assertThat(store.reserve("orders", 1000, MAX)).isEqualTo(new ReservedRange(1, 1001));

        assertThat(mockSpanner.getRequestsOfType(ExecuteSqlRequest.class)).extracting(ExecuteSqlRequest::getSql)
                .as("the aborted attempt and its retry").containsExactly(RESERVE_SQL, RESERVE_SQL);
        assertThat(mockSpanner.countRequestsOfType(CommitRequest.class)).as("commits").isEqualTo(1);
    }

    @Test
    @DisplayName("mock-server: an abort of the caller's transaction reaches the caller as AbortedException, for its"
            + " retry")
    void anAbortOfTheCallersTransactionReachesTheCallerAsAbortedException() {
        mockSpanner.putStatementResult(StatementResult.query(select("invoices"), nextValueRows(1)));
        mockSpanner.putStatementResult(StatementResult.query(reserve("invoices", 1, MAX), nextValueRows(2)));
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.SYNC).build()).build();
                TransactionManager manager = client.transactionManager()) {
            Sequence invoices = registry.sequence("invoices");
            TransactionContext tx = manager.begin();
            mockSpanner.abortNextStatement();

            assertThatThrownBy(() -> invoices.nextInTransaction(tx)).isInstanceOf(AbortedException.class);

            TransactionContext retry = manager.resetForRetry();
            assertThat(invoices.nextInTransaction(retry)).isEqualTo(1);
            manager.commit();
        }
    }

    @Test
    @DisplayName("mock-server: ASYNC_BATCH callers do not wait while the prefetch is in time (50 ms store latency)")
    void asyncBatchCallersDoNotWaitWhileThePrefetchIsInTime() {
        mockSpanner.putStatementResult(StatementResult.query(select("orders"), nextValueRows(1)));
        mockSpanner.putPartialStatementResult(StatementResult.update(Statement.of(GIVE_BACK_SQL), 1));
        mockSpanner.startCounterRow(1);
        mockSpanner.setExecuteStreamingSqlExecutionTime(SimulatedExecutionTime.ofMinimumAndRandomTime(50, 0));
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(1000)
                .lowWatermark(500).build();
        long[] values = new long[3000];
        SequenceStats stats;
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            for (int i = 0; i < values.length; i++) {
                // The caller is paced by events, not by time: before it takes the last value in hand it waits
                // (outside the sequence) until the background refill has landed, as a caller slower than the refill
                // would find it, however loaded the machine is.
                if (orders.stats().remaining() < 2) {
                    await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().remaining() >= 2);
                }
                values[i] = orders.next();
            }
            stats = orders.stats();
        }

        assertThat(stats.waits()).as("calls that waited").isZero();
        // 3,000 values from blocks of 1,000: at least one background refill. How many more depends on how long the
        // first reservations waited (the later blocks are sized by that wait), so only the one is certain.
        assertThat(stats.reservations()).isGreaterThanOrEqualTo(2);
        assertThat(values).isSorted();
        Concurrently.assertContiguousFrom(1, Concurrently.assertUnique(values));
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"ASYNC", "BATCH", "ASYNC_BATCH"})
    @DisplayName("mock-server: a permanent error surfaces as SequenceUnavailableException within the acquire timeout")
    void aPermanentErrorSurfacesAsSequenceUnavailableWithinTheAcquireTimeout(Strategy strategy) {
        mockSpanner.putStatementResult(StatementResult.query(select("orders"), nextValueRows(1)));
        mockSpanner.putPartialStatementResult(StatementResult.exception(Statement.of(RESERVE_SQL),
                Status.PERMISSION_DENIED.withDescription("may not update seqgen_sequences").asRuntimeException()));
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).acquireTimeout(Duration.ofSeconds(5))
                .build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");

            // Against a hang, with a wide margin (a shared machine); that nothing was retried is checked below.
            assertTimeoutPreemptively(settings.acquireTimeout().plusSeconds(30), () -> assertThatThrownBy(orders::next)
                    .isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("'orders'")
                    .hasMessageContaining("PERMISSION_DENIED"));
            assertThat(orders.stats().retries()).as("a permanent error is not retried").isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Status.Code.class, names = {"UNAVAILABLE", "DEADLINE_EXCEEDED", "RESOURCE_EXHAUSTED",
            "PERMISSION_DENIED", "INVALID_ARGUMENT", "NOT_FOUND"})
    @DisplayName("mock-server: UNAVAILABLE, DEADLINE_EXCEEDED and RESOURCE_EXHAUSTED are transient store errors,"
            + " others not")
    void onlyUnavailableDeadlineExceededAndResourceExhaustedAreTransient(Status.Code code) {
        mockSpanner.putPartialStatementResult(StatementResult.exception(Statement.of(RESERVE_SQL),
                Status.fromCode(code).withDescription("injected").asRuntimeException()));
        // The client retries UNAVAILABLE on a streaming statement by itself until the operation timeout.
        SpannerSequenceStore bounded = SpannerSequenceStore.builder(client)
                .operationTimeout(Duration.ofMillis(500))
                .build();
        boolean expectedTransient = code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED
                || code == Status.Code.RESOURCE_EXHAUSTED;

        assertTimeoutPreemptively(Duration.ofMinutes(1), () -> assertThatThrownBy(
                () -> bounded.reserve("orders", 10, MAX))
                .isInstanceOfSatisfying(SequenceStoreException.class,
                        e -> assertThat(e.isTransient()).isEqualTo(expectedTransient))
                .hasMessageContaining("'orders'").hasMessageContaining("seqgen_sequences"));
    }

    @Test
    @DisplayName("mock-server: the operation timeout is validated")
    void theOperationTimeoutIsValidated() {
        assertThatThrownBy(() -> SpannerSequenceStore.builder(client).operationTimeout(Duration.ZERO))
                .isInstanceOfSatisfying(SequenceConfigurationException.class,
                        e -> assertThat(e.setting()).isEqualTo("operation-timeout"));
    }

    @Test
    @DisplayName("mock-server: the table name is validated, since it is written into SQL text")
    void theTableNameIsValidated() {
        assertThatThrownBy(() -> SpannerSequenceStore.builder(client).table("seqgen; DROP TABLE orders"))
                .isInstanceOfSatisfying(SequenceConfigurationException.class,
                        e -> assertThat(e.setting()).isEqualTo("table"));
        assertThat(SpannerSequenceStore.builder(client).table("ids.seqgen_sequences").build().table())
                .isEqualTo("ids.seqgen_sequences");
        assertThat(store.table()).isEqualTo(SpannerSequenceStore.DEFAULT_TABLE);
        assertThat(store.name()).isEqualTo("spanner");
    }

    @Test
    @DisplayName("mock-server: creating the table on demand needs the database admin client")
    void creatingTheTableOnDemandNeedsTheDatabaseAdminClient() {
        assertThatThrownBy(() -> SpannerSequenceStore.builder(client).createTable(true).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("databaseAdminClient");
    }

    private static Statement select(String name) {
        return Statement.newBuilder(SELECT_SQL).bind("name").to(name).build();
    }

    private static Statement reserve(String name, long count, long lastStart) {
        return Statement.newBuilder(RESERVE_SQL)
                .bind("count").to(count)
                .bind("name").to(name)
                .bind("lastStart").to(lastStart)
                .build();
    }
}
