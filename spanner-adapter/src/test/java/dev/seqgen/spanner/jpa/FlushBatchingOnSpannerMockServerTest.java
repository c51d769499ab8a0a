package dev.seqgen.spanner.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.MockSpannerServiceImpl;
import com.google.cloud.spanner.Statement;
import com.google.protobuf.AbstractMessage;
import com.google.spanner.v1.ExecuteBatchDmlRequest;
import com.google.spanner.v1.ExecuteBatchDmlResponse;
import com.google.spanner.v1.ExecuteSqlRequest;
import com.google.spanner.v1.PartialResultSet;
import com.google.spanner.v1.ResultSet;
import com.google.spanner.v1.ResultSetMetadata;
import com.google.spanner.v1.StructType;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.spanner.CounterRowMockSpanner;
import dev.seqgen.spanner.jdbc.UrlDataSource;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a flush of numbered entities sends to Cloud Spanner through the Spanner JDBC driver with
 * {@code auto_batch_dml=true}, counted on the client library's mock server: the inserts of a flush go out in as
 * many {@code ExecuteBatchDml} requests as without seqgen, and the SYNC numbers of the whole flush cost one
 * increment, sent before the first insert.
 */
class FlushBatchingOnSpannerMockServerTest {

    private static final int ENTITIES = 200;

    /**
     * Answers every statement: queries with no rows, DML with one row changed, and the increment of seqgen's row
     * ({@code UPDATE ... THEN RETURN next_value}) from a counter, so that Hibernate and seqgen can start and run
     * without a schema.
     */
    static final class AnsweringMock extends MockSpannerServiceImpl {
        private long nextValue = 1;

        @Override
        public synchronized void executeStreamingSql(ExecuteSqlRequest request,
                StreamObserver<PartialResultSet> responseObserver) {
            answer(request);
            super.executeStreamingSql(request, responseObserver);
        }

        @Override
        public synchronized void executeSql(ExecuteSqlRequest request, StreamObserver<ResultSet> responseObserver) {
            answer(request);
            super.executeSql(request, responseObserver);
        }

        @Override
        public synchronized void executeBatchDml(ExecuteBatchDmlRequest request,
                StreamObserver<ExecuteBatchDmlResponse> responseObserver) {
            for (ExecuteBatchDmlRequest.Statement statement : request.getStatementsList()) {
                putPartialStatementResult(StatementResult.update(Statement.of(statement.getSql()), 1L));
            }
            super.executeBatchDml(request, responseObserver);
        }

        private void answer(ExecuteSqlRequest request) {
            String sql = request.getSql();
            String upper = sql.toUpperCase(Locale.ROOT);
            if (upper.contains("THEN RETURN NEXT_VALUE")) {
                // The JDBC driver names parameters p1, p2, ...: the count is the first.
                var params = request.getParams().getFieldsMap();
                long count = Long.parseLong((params.containsKey("count") ? params.get("count") : params.get("p1"))
                        .getStringValue());
                nextValue += count;
                putPartialStatementResult(StatementResult.query(Statement.of(sql),
                        CounterRowMockSpanner.nextValueRows(nextValue)));
            } else if (upper.startsWith("SELECT") || upper.startsWith("WITH")) {
                putPartialStatementResult(StatementResult.query(Statement.of(sql), ResultSet.newBuilder()
                        .setMetadata(ResultSetMetadata.newBuilder().setRowType(StructType.getDefaultInstance()))
                        .build()));
            } else {
                putPartialStatementResult(StatementResult.update(Statement.of(sql), 1L));
            }
        }
    }

    private AnsweringMock mock;
    private Server server;
    private String url;

    @BeforeEach
    void start() throws Exception {
        mock = new AnsweringMock();
        mock.setAbortProbability(0.0D);
        mock.putStatementResult(MockSpannerServiceImpl.StatementResult.detectDialectResult(Dialect.GOOGLE_STANDARD_SQL));
        server = NettyServerBuilder.forAddress(new InetSocketAddress("localhost", 0)).addService(mock).build().start();
        url = "jdbc:cloudspanner://localhost:" + server.getPort() + "/projects/p/instances/i/databases/d"
                + "?usePlainText=true;minSessions=1;auto_batch_dml=true";
    }

    @AfterEach
    void stop() {
        server.shutdownNow();
    }

    @Test
    void aFlushOf200NumberedEntitiesSendsTheBatchesItSendsWithoutSeqgenAndOneIncrement() {
        Configuration configuration = new Configuration().addAnnotatedClass(MockNumberedInvoice.class)
                .addAnnotatedClass(MockPlainInvoice.class);
        configuration.getProperties().put(AvailableSettings.DATASOURCE, new UrlDataSource(url));
        configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
        configuration.getProperties().put(AvailableSettings.STATEMENT_BATCH_SIZE, 50);
        configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
        try (SessionFactory sessionFactory = configuration.buildSessionFactory()) {
            Requests plain = flush(sessionFactory, session -> {
                for (long i = 1; i <= ENTITIES; i++) {
                    session.persist(new MockPlainInvoice(i, i));
                }
            });
            List<MockNumberedInvoice> numbered = new ArrayList<>();
            Requests seqgen = flush(sessionFactory, session -> {
                for (long i = 1; i <= ENTITIES; i++) {
                    MockNumberedInvoice invoice = new MockNumberedInvoice(i);
                    session.persist(invoice);
                    numbered.add(invoice);
                }
            });
            assertThat(plain.batches).as("ExecuteBatchDml requests of the flush without seqgen").isEqualTo(1);
            assertThat(seqgen.batches).as("ExecuteBatchDml requests of the flush with SYNC numbers")
                    .isEqualTo(plain.batches);
            assertThat(seqgen.batchedStatements).as("inserts in them").isEqualTo(ENTITIES);
            assertThat(seqgen.increments).as("increments of seqgen's row for the flush's 200 numbers").isEqualTo(1);
            assertThat(seqgen.incrementFirst).as("the increment went out before the inserts' batch").isTrue();
            long first = numbered.get(0).getNumber();
            assertThat(numbered).extracting(MockNumberedInvoice::getNumber).as("consecutive, in insert order")
                    .containsExactlyElementsOf(java.util.stream.LongStream.range(first, first + ENTITIES).boxed()
                            .toList());
        }
    }

    /**
     * The first id of a sequence reads the highest id its table holds (adoption). That read runs on a connection
     * of seqgen's store, never in the session's transaction: the session's read-write transaction begins with
     * the insert, and the {@code max} query is a single-use or read-only read of its own. Otherwise that read
     * would begin the caller's transaction and widen what it locks and what can abort it.
     */
    @Test
    void theFirstIdsAdoptionReadIsNotTheStatementThatBeginsTheSessionsTransaction() {
        Configuration configuration = new Configuration().addAnnotatedClass(MockTicket.class);
        configuration.getProperties().put(AvailableSettings.DATASOURCE, new UrlDataSource(url));
        configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
        configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
        try (SessionFactory sessionFactory = configuration.buildSessionFactory()) {
            mock.clearRequests();
            MockTicket ticket = new MockTicket("ada");
            sessionFactory.inTransaction(session -> session.persist(ticket));
            assertThat(ticket.getId()).isPositive();

            List<AbstractMessage> requests = mock.getRequests();
            List<ExecuteSqlRequest> adoption = requests.stream().filter(ExecuteSqlRequest.class::isInstance)
                    .map(ExecuteSqlRequest.class::cast)
                    .filter(sql -> sql.getSql().toLowerCase(Locale.ROOT).startsWith("select max("))
                    .toList();
            assertThat(adoption).as("the adoption read of the first id").hasSize(1);
            com.google.spanner.v1.TransactionSelector read = adoption.get(0).getTransaction();
            assertThat(read.hasBegin() && read.getBegin().hasReadWrite()).as("the read begins no read-write"
                    + " transaction: %s", read).isFalse();
            assertThat(read.hasId()).as("the read joins no transaction begun before it: %s", read).isFalse();

            List<AbstractMessage> inserts = requests.stream().filter(request -> sqlOf(request)
                    .startsWith("insert into mockticket")).toList();
            assertThat(inserts).as("the session's insert").hasSize(1);
            com.google.spanner.v1.TransactionSelector session = inserts.get(0) instanceof ExecuteSqlRequest sql
                    ? sql.getTransaction() : ((ExecuteBatchDmlRequest) inserts.get(0)).getTransaction();
            assertThat(session.hasBegin() && session.getBegin().hasReadWrite())
                    .as("the insert is what begins the session's read-write transaction (inline begin): %s", session)
                    .isTrue();
        }
    }

    /** The SQL of a request, lower case (the first statement's of a batch), or "" for other requests. */
    private static String sqlOf(AbstractMessage request) {
        String sql = request instanceof ExecuteSqlRequest single ? single.getSql()
                : request instanceof ExecuteBatchDmlRequest batch && batch.getStatementsCount() > 0
                        ? batch.getStatements(0).getSql() : "";
        return sql.toLowerCase(Locale.ROOT);
    }

    private record Requests(int batches, int batchedStatements, int increments, boolean incrementFirst) {
    }

    private Requests flush(SessionFactory sessionFactory, java.util.function.Consumer<org.hibernate.Session> work) {
        mock.clearRequests();
        sessionFactory.inTransaction(work);
        List<AbstractMessage> requests = mock.getRequests();
        int batches = 0;
        int batchedStatements = 0;
        int increments = 0;
        boolean incrementFirst = true;
        for (AbstractMessage request : requests) {
            if (request instanceof ExecuteBatchDmlRequest batch) {
                batches++;
                batchedStatements += batch.getStatementsCount();
            } else if (request instanceof ExecuteSqlRequest sql
                    && sql.getSql().toUpperCase(Locale.ROOT).contains("THEN RETURN NEXT_VALUE")) {
                increments++;
                incrementFirst &= batches == 0;
            }
        }
        return new Requests(batches, batchedStatements, increments, incrementFirst);
    }
}
