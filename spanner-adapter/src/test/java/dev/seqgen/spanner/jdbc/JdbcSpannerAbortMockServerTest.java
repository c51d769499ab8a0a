package dev.seqgen.spanner.jdbc;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.MockSpannerServiceImpl;
import com.google.cloud.spanner.MockSpannerServiceImpl.StatementResult;
import com.google.cloud.spanner.Statement;
import com.google.cloud.spanner.AbortedDueToConcurrentModificationException;
import com.google.protobuf.Empty;
import com.google.spanner.v1.CommitRequest;
import com.google.spanner.v1.CommitResponse;
import com.google.spanner.v1.ExecuteSqlRequest;
import com.google.spanner.v1.PartialResultSet;
import com.google.spanner.v1.RollbackRequest;
import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spanner.CounterRowMockSpanner;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SYNC increments through the Spanner JDBC driver when Spanner aborts the transaction, on the client
 * library's mock server (the emulator cannot abort on demand). The mock keeps one counter row with real
 * transaction semantics: an increment is visible to its own transaction and becomes the committed value
 * only when that transaction commits; an abort or rollback drops it.
 *
 * <p>What the application sees: with the driver's default {@code retryAbortsInternally=true} the driver
 * replays the aborted transaction; the replayed increment returns the same value when nobody committed in
 * between, so the commit succeeds with no gap. If another transaction moved the row, the replay returns a
 * different value, the driver's checksum differs and it throws
 * {@link AbortedDueToConcurrentModificationException}: the application retries the whole transaction and
 * gets a fresh value. Either way no value is handed out twice and none is silently skipped.
 */
@DisplayName("JDBC store SYNC on Cloud Spanner mock-server (GoogleSQL, Spanner JDBC driver) with injected aborts")
class JdbcSpannerAbortMockServerTest {

    private static final String TABLE = "jdbc_abort";
    private static final String RESERVE_SQL = "UPDATE " + TABLE + " SET next_value = next_value + @p1"
            + " WHERE name = @p2 AND next_value <= @p3 THEN RETURN next_value";

    /** The counter row, with transactional visibility, and aborts injected at commit. */
    static final class TransactionalCounterMock extends MockSpannerServiceImpl {
        private long committed = 1;
        private Long pending;
        private int abortsToInject;
        private boolean concurrentCommitOnAbort;
        final List<Long> takenByOthers = new ArrayList<>();

        @Override
        public synchronized void executeStreamingSql(ExecuteSqlRequest request,
                StreamObserver<PartialResultSet> responseObserver) {
            if (request.getSql().equals(RESERVE_SQL)) {
                long count = Long.parseLong(request.getParams().getFieldsOrThrow("p1").getStringValue());
                long base = pending != null ? pending : committed;
                pending = base + count;
                putPartialStatementResult(StatementResult.updateReturning(Statement.of(RESERVE_SQL),
                        CounterRowMockSpanner.nextValueRows(pending)));
            }
            super.executeStreamingSql(request, responseObserver);
        }

        @Override
        public synchronized void commit(CommitRequest request, StreamObserver<CommitResponse> responseObserver) {
            if (pending != null && abortsToInject > 0) {
                abortsToInject--;
                pending = null;
                if (concurrentCommitOnAbort) {
                    // Another transaction takes the next value and commits before the replay.
                    takenByOthers.add(committed);
                    committed++;
                }
                responseObserver.onError(Status.ABORTED.withDescription("injected abort").asRuntimeException());
                return;
            }
            if (pending != null) {
                committed = pending;
                pending = null;
            }
            super.commit(request, responseObserver);
        }

        @Override
        public synchronized void rollback(RollbackRequest request, StreamObserver<Empty> responseObserver) {
            pending = null;
            super.rollback(request, responseObserver);
        }
    }

    private TransactionalCounterMock mock;
    private Server server;
    private String url;

    @BeforeEach
    void start() throws Exception {
        mock = new TransactionalCounterMock();
        mock.setAbortProbability(0.0D);
        mock.putStatementResult(StatementResult.detectDialectResult(Dialect.GOOGLE_STANDARD_SQL));
        server = NettyServerBuilder.forAddress(new InetSocketAddress("localhost", 0)).addService(mock).build().start();
        url = "jdbc:cloudspanner://localhost:" + server.getPort() + "/projects/p/instances/i/databases/d"
                + "?usePlainText=true;minSessions=1";
    }

    /** Closes the driver's clients while the mock server still answers (see {@link SpannerJdbcClients}). */
    @AfterEach
    void stop() {
        try {
            SpannerJdbcClients.close();
        } finally {
            server.shutdownNow();
        }
    }

    private long syncInTransaction(JdbcSequenceStore store, Connection connection) throws SQLException {
        // An application's retry loop: the whole transaction again after a concurrent-modification abort.
        for (int attempt = 0; ; attempt++) {
            try {
                long value = store.reserveInTransaction(connection, "invoices", 1, Long.MAX_VALUE).first();
                connection.commit();
                return value;
            } catch (RuntimeException | SQLException e) {
                // The store wraps the driver's SQLException in a SequenceStoreException; commit throws it as is.
                if (!concurrentModification(e)) {
                    throw e;
                }
                connection.rollback();
                assertThat(attempt).as("retries").isLessThan(10);
            }
        }
    }

    private static boolean concurrentModification(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof AbortedDueToConcurrentModificationException) {
                return true;
            }
        }
        return false;
    }

    private JdbcSequenceStore store() {
        return JdbcSequenceStore.builder(new UrlDataSource(url)).dialect(JdbcDialect.SPANNER).table(TABLE).build();
    }

    @Test
    @DisplayName("Spanner mock-server (GoogleSQL): aborted commits replayed by the driver give 1..n, no duplicate, no gap")
    void abortsReplayedInternallyLeaveNoGap() throws SQLException {
        List<Long> committed = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url)) {
            connection.setAutoCommit(false);
            JdbcSequenceStore store = store();
            for (int i = 0; i < 12; i++) {
                if (i % 3 == 0) {
                    mock.abortsToInject = 2;
                }
                committed.add(syncInTransaction(store, connection));
            }
        }
        assertThat(committed).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
        assertThat(mock.abortsToInject).isZero();
    }

    @Test
    @DisplayName("Spanner mock-server (GoogleSQL): abort after a concurrent commit surfaces, the retry takes a fresh value")
    void concurrentModificationIsRetriedByTheApplication() throws SQLException {
        mock.concurrentCommitOnAbort = true;
        List<Long> committed = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url)) {
            connection.setAutoCommit(false);
            JdbcSequenceStore store = store();
            for (int i = 0; i < 9; i++) {
                if (i % 3 == 0) {
                    mock.abortsToInject = 1;
                }
                committed.add(syncInTransaction(store, connection));
            }
        }
        List<Long> all = new ArrayList<>(committed);
        all.addAll(mock.takenByOthers);
        assertThat(mock.takenByOthers).hasSize(3);
        assertThat(all).doesNotHaveDuplicates().hasSize(12);
        assertThat(all.stream().sorted().toList())
                .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
    }
}
