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
import dev.seqgen.spanner.jdbc.SpannerJdbcClients;
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
     * ({@code UPDATE ... THEN RETURN next_value}) from a counter per sequence, so that Hibernate and seqgen can
     * start and run without a schema.
     */
    static final class AnsweringMock extends MockSpannerServiceImpl {
        private final java.util.Map<String, Long> nextValues = new java.util.HashMap<>();

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
                // The JDBC driver names parameters p1, p2, ...: the count is the first, the sequence the second.
                var params = request.getParams().getFieldsMap();
                long count = Long.parseLong((params.containsKey("count") ? params.get("count") : params.get("p1"))
                        .getStringValue());
                String name = (params.containsKey("name") ? params.get("name") : params.get("p2")).getStringValue();
                long nextValue = nextValues.merge(name, 1 + count, (next, added) -> next + added - 1);
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

    /** Closes the driver's clients while the mock server still answers (see {@link SpannerJdbcClients}). */
    @AfterEach
    void stop() {
        try {
            SpannerJdbcClients.close();
        } finally {
            server.shutdownNow();
        }
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
     * The shape of Google's own sample (and of many applications): entities of other types persisted first, then
     * the numbered ones, then others again. The flush reserves the numbers of both sequences before its first
     * statement, so the driver sends the flush's DML in as many {@code ExecuteBatchDml} requests as without seqgen
     * (before, the increment at the first numbered insert forced out the rows buffered before it: two).
     */
    @Test
    void otherEntitiesBeforeAndAfterTheNumberedOnesSendTheBatchesTheySendWithoutSeqgen() {
        try (SessionFactory sessionFactory = sessionFactory()) {
            Requests plain = flush(sessionFactory, session -> {
                persistVenues(session, 1, 60);
                for (long i = 1; i <= 100; i++) {
                    session.persist(new MockPlainInvoice(i, i));
                }
                persistVenues(session, 61, 60);
            });
            List<MockNumberedInvoice> invoices = new ArrayList<>();
            List<MockNumberedReceipt> receipts = new ArrayList<>();
            Requests seqgen = flush(sessionFactory, session -> {
                persistVenues(session, 1001, 60);
                persistNumbered(session, 1, 70, 30, invoices, receipts);
                persistVenues(session, 1061, 60);
            });
            assertThat(plain.batches).as("ExecuteBatchDml requests without seqgen").isEqualTo(1);
            assertThat(seqgen.batches).as("ExecuteBatchDml requests with SYNC numbers").isEqualTo(plain.batches);
            assertThat(seqgen.batchedStatements).as("inserts in them").isEqualTo(220);
            assertThat(seqgen.trace).as("the increments, one per sequence, then the flush's one batch")
                    .containsExactly(INVOICE_INCREMENT, RECEIPT_INCREMENT, BATCH);
            assertConsecutive(invoices.stream().map(MockNumberedInvoice::getNumber).toList());
            assertConsecutive(receipts.stream().map(MockNumberedReceipt::getNumber).toList());
        }
    }

    /**
     * A query in the middle flushes early (AUTO flush), and the driver sends the DML it buffered before the
     * query, with or without seqgen: each of the two flushes reserves its own numbers, one increment per sequence
     * before its first statement, and the transaction sends as many batches as without seqgen.
     */
    @Test
    void eachFlushOfATransactionReservesItsOwnNumbersBeforeItsFirstStatement() {
        try (SessionFactory sessionFactory = sessionFactory()) {
            Requests plain = flush(sessionFactory, session -> {
                persistVenues(session, 1, 20);
                for (long i = 1; i <= 40; i++) {
                    session.persist(new MockPlainInvoice(i, i));
                }
                assertThat(venuesWithNegativeIds(session)).isEmpty();
                for (long i = 41; i <= 80; i++) {
                    session.persist(new MockPlainInvoice(i, i));
                }
                persistVenues(session, 21, 20);
            });
            List<MockNumberedInvoice> invoices = new ArrayList<>();
            List<MockNumberedReceipt> receipts = new ArrayList<>();
            Requests seqgen = flush(sessionFactory, session -> {
                persistVenues(session, 1001, 20);
                persistNumbered(session, 1, 30, 10, invoices, receipts);
                assertThat(venuesWithNegativeIds(session)).isEmpty();
                assertThat(invoices).as("numbered by the query's early flush")
                        .allSatisfy(invoice -> assertThat(invoice.getNumber()).isNotNull());
                persistNumbered(session, 31, 30, 10, invoices, receipts);
                persistVenues(session, 1021, 20);
            });
            assertThat(plain.batches).as("ExecuteBatchDml requests without seqgen: one per flush").isEqualTo(2);
            assertThat(seqgen.batches).as("ExecuteBatchDml requests with SYNC numbers").isEqualTo(plain.batches);
            assertThat(seqgen.trace).as("per flush, the increments, one per sequence, then its one batch")
                    .containsExactly(INVOICE_INCREMENT, RECEIPT_INCREMENT, BATCH,
                            INVOICE_INCREMENT, RECEIPT_INCREMENT, BATCH);
            assertConsecutive(invoices.stream().map(MockNumberedInvoice::getNumber).toList());
            assertConsecutive(receipts.stream().map(MockNumberedReceipt::getNumber).toList());
        }
    }

    private SessionFactory sessionFactory() {
        Configuration configuration = new Configuration().addAnnotatedClass(MockNumberedInvoice.class)
                .addAnnotatedClass(MockNumberedReceipt.class).addAnnotatedClass(MockPlainInvoice.class)
                .addAnnotatedClass(MockVenue.class);
        configuration.getProperties().put(AvailableSettings.DATASOURCE, new UrlDataSource(url));
        configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
        configuration.getProperties().put(AvailableSettings.STATEMENT_BATCH_SIZE, 50);
        configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
        return configuration.buildSessionFactory();
    }

    private static void persistVenues(org.hibernate.Session session, long firstId, int count) {
        for (long id = firstId; id < firstId + count; id++) {
            session.persist(new MockVenue(id, "venue " + id));
        }
    }

    /** Persists invoices, and a receipt after each of the first ones, from the given id on. */
    private static void persistNumbered(org.hibernate.Session session, long firstId, int invoiceCount,
            int receiptCount, List<MockNumberedInvoice> invoices, List<MockNumberedReceipt> receipts) {
        for (int i = 0; i < invoiceCount; i++) {
            MockNumberedInvoice invoice = new MockNumberedInvoice(firstId + i);
            session.persist(invoice);
            invoices.add(invoice);
            if (i < receiptCount) {
                MockNumberedReceipt receipt = new MockNumberedReceipt(firstId + i);
                session.persist(receipt);
                receipts.add(receipt);
            }
        }
    }

    /** A query on a table the pending inserts write: Hibernate flushes before it (AUTO). */
    private static List<MockVenue> venuesWithNegativeIds(org.hibernate.Session session) {
        return session.createQuery("from MockVenue v where v.id < 0", MockVenue.class).getResultList();
    }

    /** The numbers a transaction took from one sequence are consecutive, in insert order. */
    private static void assertConsecutive(List<Long> numbers) {
        assertThat(numbers).as("numbers, in insert order").isNotEmpty().doesNotContainNull();
        long first = numbers.get(0);
        assertThat(numbers).as("consecutive, in insert order").containsExactlyElementsOf(
                java.util.stream.LongStream.range(first, first + numbers.size()).boxed().toList());
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

    private static final String BATCH = "ExecuteBatchDml";
    private static final String INVOICE_INCREMENT = "+mock_invoice_numbers";
    private static final String RECEIPT_INCREMENT = "+mock_receipt_numbers";

    /**
     * What a transaction sent.
     *
     * @param trace the batches ({@link #BATCH}) and the increments ({@code +} and the sequence), in order
     */
    private record Requests(int batches, int batchedStatements, int increments, boolean incrementFirst,
            List<String> trace) {
    }

    private Requests flush(SessionFactory sessionFactory, java.util.function.Consumer<org.hibernate.Session> work) {
        mock.clearRequests();
        sessionFactory.inTransaction(work);
        List<AbstractMessage> requests = mock.getRequests();
        int batches = 0;
        int batchedStatements = 0;
        int increments = 0;
        boolean incrementFirst = true;
        List<String> trace = new ArrayList<>();
        for (AbstractMessage request : requests) {
            if (request instanceof ExecuteBatchDmlRequest batch) {
                batches++;
                batchedStatements += batch.getStatementsCount();
                trace.add(BATCH);
            } else if (request instanceof ExecuteSqlRequest sql
                    && sql.getSql().toUpperCase(Locale.ROOT).contains("THEN RETURN NEXT_VALUE")) {
                increments++;
                incrementFirst &= batches == 0;
                // The JDBC driver names parameters p1, p2, ...: the sequence's name is the second.
                var params = sql.getParams().getFieldsMap();
                trace.add("+" + (params.containsKey("name") ? params.get("name") : params.get("p2")).getStringValue());
            }
        }
        return new Requests(batches, batchedStatements, increments, incrementFirst, List.copyOf(trace));
    }
}
