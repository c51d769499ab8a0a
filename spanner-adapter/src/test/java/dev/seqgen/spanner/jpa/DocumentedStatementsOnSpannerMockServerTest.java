package dev.seqgen.spanner.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.MockSpannerServiceImpl;
import com.google.protobuf.AbstractMessage;
import com.google.spanner.v1.ExecuteBatchDmlRequest;
import com.google.spanner.v1.ExecuteSqlRequest;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.spanner.jdbc.SpannerJdbcClients;
import dev.seqgen.spanner.jdbc.UrlDataSource;
import dev.seqgen.testing.RepositoryFiles;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;

/**
 * docs/spanner-jpa.md's table of the statements seqgen sends is what seqgen sends: a Hibernate application on the
 * client library's mock server, through the Spanner JDBC driver, starts with an {@code ASYNC_BATCH} id, a
 * {@code BATCH} id of bit-reversed keys and a {@code SYNC} number, persists one entity of each, and closes; every
 * statement on seqgen's two tables that reached the server is written in the table, in backticks, as the server
 * received it. (The mock answers that both tables exist, so the {@code CREATE TABLE} statements, which go to the
 * database admin API, are not among them.)
 */
class DocumentedStatementsOnSpannerMockServerTest {

    private static final String GUIDE = "docs/spanner-jpa.md";
    private static final String SECTION = "## The statements seqgen sends";
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void everyStatementOnSeqgensTablesIsInTheGuidesTable() throws Exception {
        FlushBatchingOnSpannerMockServerTest.AnsweringMock mock = new FlushBatchingOnSpannerMockServerTest.AnsweringMock();
        mock.setAbortProbability(0.0D);
        mock.putStatementResult(MockSpannerServiceImpl.StatementResult.detectDialectResult(Dialect.GOOGLE_STANDARD_SQL));
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("localhost", 0)).addService(mock).build()
                .start();
        List<String> sent = new ArrayList<>();
        try {
            String url = "jdbc:cloudspanner://localhost:" + server.getPort() + "/projects/p/instances/i/databases/d"
                    + "?usePlainText=true;minSessions=1";
            Configuration configuration = new Configuration().addAnnotatedClass(MockTicket.class)
                    .addAnnotatedClass(MockNumberedInvoice.class).addAnnotatedClass(MockSpreadTicket.class);
            configuration.getProperties().put(AvailableSettings.DATASOURCE, new UrlDataSource(url));
            configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
            configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
            configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
            try (SessionFactory sessionFactory = configuration.buildSessionFactory()) {
                sessionFactory.inTransaction(session -> {
                    session.persist(new MockTicket("ada"));
                    session.persist(new MockNumberedInvoice(1L));
                    session.persist(new MockSpreadTicket("grace"));
                });
            }
            for (AbstractMessage request : mock.getRequests()) {
                if (request instanceof ExecuteSqlRequest sql) {
                    sent.add(sql.getSql());
                } else if (request instanceof ExecuteBatchDmlRequest batch) {
                    batch.getStatementsList().forEach(statement -> sent.add(statement.getSql()));
                }
            }
        } finally {
            try {
                SpannerJdbcClients.close();
            } finally {
                server.shutdownNow();
            }
        }
        Set<String> seqgens = new LinkedHashSet<>();
        for (String sql : sent) {
            if (sql.contains("seqgen_sequences")) {
                seqgens.add(sql.replaceAll("\\s+", " ").strip());
            }
        }
        assertThat(seqgens).as("seqgen's statements among " + sent).anyMatch(sql -> sql.contains("THEN RETURN"))
                .anyMatch(sql -> sql.contains("seqgen_sequences_kept"));
        Set<String> documented = documented();
        assertThat(seqgens).as("seqgen's statements, against the table of " + GUIDE + "; all it sent: " + sent)
                .allSatisfy(sql -> assertThat(documented).as(sql).contains(sql));
    }

    /** What the section's table writes in backticks, its white space folded. */
    private static Set<String> documented() throws Exception {
        String guide = Files.readString(RepositoryFiles.find(GUIDE));
        int start = guide.indexOf(SECTION);
        assertThat(start).as(GUIDE + " has the section").isNotNegative();
        int end = guide.indexOf("\n## ", start + SECTION.length());
        Matcher code = CODE.matcher(guide.substring(start, end < 0 ? guide.length() : end));
        Set<String> documented = new LinkedHashSet<>();
        while (code.find()) {
            documented.add(code.group(1).replaceAll("\\s+", " ").strip());
        }
        return documented;
    }
}
