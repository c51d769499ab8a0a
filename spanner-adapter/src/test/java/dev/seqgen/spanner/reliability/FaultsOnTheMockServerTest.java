package dev.seqgen.spanner.reliability;

import com.google.api.gax.grpc.testing.LocalChannelProvider;
import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.MockSpannerServiceImpl.StatementResult;
import com.google.cloud.spanner.SessionPoolOptions;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import com.google.cloud.spanner.Statement;
import com.google.rpc.RetryInfo;
import com.google.spanner.v1.BeginTransactionRequest;
import com.google.spanner.v1.CommitRequest;
import com.google.spanner.v1.CommitResponse;
import com.google.spanner.v1.ExecuteSqlRequest;
import com.google.spanner.v1.PartialResultSet;
import com.google.spanner.v1.Transaction;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.CounterRowMockSpanner;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.testing.Concurrently;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import static dev.seqgen.spanner.CounterRowMockSpanner.GIVE_BACK_SQL;
import static dev.seqgen.spanner.CounterRowMockSpanner.SELECT_SQL;
import static dev.seqgen.spanner.CounterRowMockSpanner.nextValueRows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Faults the emulator cannot produce, injected by the Spanner client's in-process mock server: a burst of
 * {@code ABORTED} on every attempt, and an outage ({@code UNAVAILABLE} on every statement, begin and commit)
 * longer than the acquire timeout. Behind the reservation statement the mock keeps one counter row, which
 * moves only when the statement is answered (not when it is aborted), so that successive reservations get
 * successive blocks.
 */
@DisplayName("faults on mock-server")
class FaultsOnTheMockServerTest {

    private FaultyMockSpanner mockSpanner;
    private Server server;
    private Spanner spanner;

    @BeforeEach
    void startServerAndConnect() throws IOException {
        mockSpanner = new FaultyMockSpanner();
        mockSpanner.setAbortProbability(0.0D);
        mockSpanner.putStatementResult(StatementResult.query(
                Statement.newBuilder(SELECT_SQL).bind("name").to("orders").build(), nextValueRows(1)));
        // The give-back at close finds the row moved on (the counter row does not move back): nothing given back.
        mockSpanner.putPartialStatementResult(StatementResult.update(Statement.of(GIVE_BACK_SQL), 0));
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).addService(mockSpanner).build().start();
        spanner = SpannerOptions.newBuilder()
                .setProjectId("seqgen-test")
                .setEmulatorHost(null)
                .setChannelProvider(LocalChannelProvider.create(name))
                .setCredentials(NoCredentials.getInstance())
                .setBuiltInMetricsEnabled(false)
                .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(8).build())
                .build()
                .getService();
    }

    @AfterEach
    void disconnectAndStopServer() throws InterruptedException {
        spanner.close();
        server.shutdown();
        server.awaitTermination();
    }

    /** Reservation statements answered with ABORTED in the burst. */
    private static final long ABORTS = 60;

    private SpannerSequenceStore store(Duration operationTimeout) {
        return SpannerSequenceStore.builder(spanner.getDatabaseClient(DatabaseId.of("seqgen-test", "seqgen-test",
                "seqgen"))).operationTimeout(operationTimeout).build();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"ASYNC", "BATCH", "ASYNC_BATCH"})
    @DisplayName("mock-server: a burst of 60 ABORTED answers on every attempt, then success: one committed block per"
            + " reservation, every call within the acquire timeout, no value twice across 8 threads")
    void aBurstOfAbortsOnEveryAttemptThenSuccess(Strategy strategy) throws Exception {
        Duration acquireTimeout = Duration.ofSeconds(5);
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(20).lowWatermark(10)
                .acquireTimeout(acquireTimeout).build();
        SpannerSequenceStore store = store(Duration.ofSeconds(1));
        mockSpanner.startCounterRow(1);
        List<SequenceRegistry> registries = List.of(SequenceRegistry.builder(store).defaults(settings).build(),
                SequenceRegistry.builder(store).defaults(settings).build());
        List<Sequence> generators = registries.stream().map(r -> r.sequence("orders")).toList();
        AtomicLong slowestCallNanos = new AtomicLong();
        int valuesPerThread = strategy == Strategy.ASYNC ? 40 : 200;
        long[] values;
        try {
            mockSpanner.abortNext(ABORTS);
            values = Concurrently.run(8, thread -> {
                Sequence orders = generators.get(thread % 2);
                long[] mine = new long[valuesPerThread];
                for (int i = 0; i < mine.length; i++) {
                    long start = System.nanoTime();
                    mine[i] = orders.next();
                    slowestCallNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                }
                return mine;
            });
        } finally {
            registries.forEach(SequenceRegistry::close);
        }

        long[] sorted = Concurrently.assertUnique(values);
        long reservations = generators.stream().mapToLong(s -> s.stats().reservations()).sum();
        long seqgenRetries = generators.stream().mapToLong(s -> s.stats().retries()).sum();
        // Each give-back at close is a transaction of its own, with one statement and one commit.
        long giveBacks = mockSpanner.getRequestsOfType(ExecuteSqlRequest.class).stream()
                .filter(r -> r.getSql().startsWith(GIVE_BACK_SQL)).count();
        long commits = mockSpanner.countRequestsOfType(CommitRequest.class) - giveBacks;
        System.out.printf("mock-server %s: %,d values, %,d aborted attempts, %,d answered reservation statements,"
                        + " %,d commits, %,d reservations, %,d seqgen retries, slowest call %,d ms%n", strategy,
                sorted.length, mockSpanner.aborted.get(), mockSpanner.answered.get(), commits, reservations,
                seqgenRetries, TimeUnit.NANOSECONDS.toMillis(slowestCallNanos.get()));
        assertThat(mockSpanner.aborted.get()).as("aborted attempts").isEqualTo(ABORTS);
        assertThat(commits).as("commits: one per successful reservation (no other transaction commits)")
                .isEqualTo(reservations);
        assertThat(mockSpanner.answered.get()).as("reservation statements answered").isEqualTo(reservations);
        assertThat(sorted[sorted.length - 1]).as("highest value: within the blocks committed")
                .isLessThan(mockSpanner.nextValue());
        // A bound against a hang, with a wide margin: this is a shared machine, and no speed is measured here.
        assertThat(slowestCallNanos.get()).as("slowest call, bounded by the acquire timeout")
                .isLessThan(acquireTimeout.plusSeconds(10).toNanos());
        if (strategy == Strategy.ASYNC) {
            Concurrently.assertContiguousFrom(1, sorted);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"ASYNC", "BATCH", "ASYNC_BATCH"})
    @DisplayName("mock-server: UNAVAILABLE for longer than the acquire timeout: SequenceUnavailableException within"
            + " operation timeout + acquire timeout, then values again once the server answers")
    void anOutageLongerThanTheAcquireTimeoutFailsCallersInBoundedTimeThenRecovers(Strategy strategy)
            throws Exception {
        Duration operationTimeout = Duration.ofMillis(500);
        Duration acquireTimeout = Duration.ofSeconds(1);
        // Fixed blocks: the values served during the outage below are counted from them.
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(20).lowWatermark(10).adaptive(false)
                .acquireTimeout(acquireTimeout).build();
        mockSpanner.startCounterRow(1);
        try (SequenceRegistry registry = SequenceRegistry.builder(store(operationTimeout)).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            LongStream.Builder values = LongStream.builder();
            for (int i = 0; i < 12; i++) {
                values.add(orders.next());
            }
            if (strategy == Strategy.ASYNC_BATCH) {
                // 12 taken of 20: below the watermark, prefetching; the prefetched block arrives
                await().atMost(Duration.ofMinutes(1)).until(() -> orders.stats().remaining() > 8);
            }

            mockSpanner.outage(true);
            SequenceUnavailableException failure = null;
            long failedCallNanos = 0;
            int servedDuringOutage = 0;
            for (int i = 0; i < 100 && failure == null; i++) {
                long start = System.nanoTime();
                try {
                    values.add(orders.next());
                    servedDuringOutage++;
                } catch (SequenceUnavailableException e) {
                    failure = e;
                    failedCallNanos = System.nanoTime() - start;
                }
            }
            assertThat(failure).as("a caller told the store is unavailable").isNotNull();
            assertThat(failure.getMessage()).contains("'orders'");
            // A bound against a hang, with a wide margin: this is a shared machine, and no speed is measured here.
            Duration bound = operationTimeout.plus(acquireTimeout).plusSeconds(10);
            assertThat(failedCallNanos).as("time of the failed call, at most " + bound).isLessThan(bound.toNanos());
            switch (strategy) {
                case ASYNC -> assertThat(servedDuringOutage).isZero();
                case BATCH -> assertThat(servedDuringOutage).as("rest of the block in hand").isEqualTo(8);
                default -> assertThat(servedDuringOutage).as("rest of the block in hand and the prefetched block")
                        .isEqualTo(28);
            }

            mockSpanner.outage(false);
            // A caller that comes just as the outage ends may still be told of the failure of a background refill
            // begun during the outage (ASYNC_BATCH); within operation + acquire timeout values flow again.
            long recoveryDeadline = System.nanoTime() + bound.toNanos();
            List<String> staleFailures = new ArrayList<>();
            long firstAfterRecovery = 0;
            while (firstAfterRecovery == 0) {
                try {
                    firstAfterRecovery = orders.next();
                } catch (SequenceUnavailableException e) {
                    staleFailures.add(e.getMessage());
                    assertThat(System.nanoTime() - recoveryDeadline).as("values flow again in time, failures: "
                            + staleFailures).isNegative();
                }
            }
            assertThat(staleFailures).as("failures after the outage ended").hasSizeLessThanOrEqualTo(1);
            if (strategy != Strategy.ASYNC_BATCH) {
                assertThat(staleFailures).isEmpty();
            }
            long[] afterRecovery = new long[30];
            afterRecovery[0] = firstAfterRecovery;
            for (int i = 1; i < afterRecovery.length; i++) {
                afterRecovery[i] = orders.next();
            }
            long[] sorted = Concurrently.assertUnique(LongStream.concat(values.build(), LongStream.of(afterRecovery))
                    .toArray());
            System.out.printf("mock-server %s: %d served during the outage, then failed after %d ms: %s; %d stale"
                            + " failure(s) after it ended %s; %d values after recovery, %d in all, unique%n", strategy,
                    servedDuringOutage, TimeUnit.NANOSECONDS.toMillis(failedCallNanos), failure.getMessage(),
                    staleFailures.size(), staleFailures, afterRecovery.length, sorted.length);
        }
    }

    /**
     * The mock server with a counter row behind the reservation statement, an abort burst (the next reservation
     * statements, as many as the test says, answered with ABORTED and a 5 ms retry delay) and an outage switch.
     */
    static final class FaultyMockSpanner extends CounterRowMockSpanner {

        final AtomicLong aborted = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        private final AtomicLong abortsLeft = new AtomicLong();
        private volatile boolean outage;

        void abortNext(long statements) {
            abortsLeft.set(statements);
        }

        void outage(boolean on) {
            outage = on;
        }

        private static io.grpc.StatusRuntimeException abortedWithRetryDelay() {
            Metadata trailers = new Metadata();
            trailers.put(ProtoUtils.keyForProto(RetryInfo.getDefaultInstance()), RetryInfo.newBuilder()
                    .setRetryDelay(com.google.protobuf.Duration.newBuilder().setNanos(5_000_000)).build());
            return Status.ABORTED.withDescription("injected abort").asRuntimeException(trailers);
        }

        private static io.grpc.StatusRuntimeException unavailable() {
            return Status.UNAVAILABLE.withDescription("injected outage").asRuntimeException();
        }

        @Override
        public void executeStreamingSql(ExecuteSqlRequest request, StreamObserver<PartialResultSet> responseObserver) {
            if (outage) {
                responseObserver.onError(unavailable());
                return;
            }
            if (answersFromCounterRow(request) && abortsLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                aborted.incrementAndGet();
                responseObserver.onError(abortedWithRetryDelay());
                return;
            }
            super.executeStreamingSql(request, responseObserver);
        }

        @Override
        protected void reservationAnswered() {
            answered.incrementAndGet();
        }

        @Override
        public void beginTransaction(BeginTransactionRequest request, StreamObserver<Transaction> responseObserver) {
            if (outage) {
                responseObserver.onError(unavailable());
                return;
            }
            super.beginTransaction(request, responseObserver);
        }

        @Override
        public void commit(CommitRequest request, StreamObserver<CommitResponse> responseObserver) {
            if (outage) {
                responseObserver.onError(unavailable());
                return;
            }
            super.commit(request, responseObserver);
        }
    }
}
