package dev.seqgen.spanner.jpa;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.spanner.jdbc.SpannerJdbcClients;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * JPA entities stored in Cloud Spanner (the emulator) through Hibernate's {@code SpannerDialect} and the Spanner
 * JDBC driver, their ids from seqgen's JDBC store in the same database: SYNC invoice numbers taken in the
 * session's own read-write transaction, gapless among commits with a third of the transactions rolled back, and
 * async-batch order ids unique across threads. Aborted transactions (the emulator runs one read-write transaction
 * at a time) are retried by the test as an application would retry them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JpaOnSpannerEmulatorTest {

    private SessionFactory sessionFactory;
    private HikariDataSource dataSource;

    @BeforeAll
    void start() {
        String host = SpannerEmulatorHost.host();
        if (host == null) {
            return;
        }
        Configuration configuration = new Configuration()
                .addAnnotatedClass(SpannerInvoice.class)
                .addAnnotatedClass(SpannerOrder.class);
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl("jdbc:cloudspanner://" + host + "/projects/seqgen-test/instances/seqgen-test/databases/jpa-"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36).substring(0, 8)
                + "?autoConfigEmulator=true");
        pool.setMaximumPoolSize(8);
        dataSource = new HikariDataSource(pool);
        configuration.getProperties().put(AvailableSettings.DATASOURCE, dataSource);
        configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
        // Hibernate 7.4's SpannerDialect exports "primary key (...)" inside the column list, which Spanner rejects:
        // the tables are created with Spanner's own DDL, as an application's migrations would.
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE SpannerInvoice (number INT64 NOT NULL, customer STRING(255))"
                    + " PRIMARY KEY (number)");
            statement.execute("CREATE TABLE SpannerOrder (id INT64 NOT NULL, customer STRING(255)) PRIMARY KEY (id)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
        configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
        // Blocks of 50 refilled early: the 80 orders of the threads take a second block, reserved in the background.
        configuration.getProperties().put(SeqgenHibernate.SEQUENCES_PREFIX + "orders.block-size", "50");
        configuration.getProperties().put(SeqgenHibernate.SEQUENCES_PREFIX + "orders.low-watermark", "10");
        sessionFactory = configuration.buildSessionFactory();
    }

    @AfterAll
    void stop() {
        if (sessionFactory != null) {
            sessionFactory.close();
        }
        if (dataSource != null) {
            dataSource.close();
            SpannerJdbcClients.close();
        }
    }

    @Test
    void spannerEmulatorSyncInvoiceNumbersAreGaplessInTheSessionsTransaction() throws Exception {
        requireEmulator();
        List<Long> committed = Collections.synchronizedList(new ArrayList<>());
        Concurrently.run(2, thread -> {
            for (int i = 0; i < 12; i++) {
                boolean rollBack = i % 3 == 2;
                for (int attempt = 1; ; attempt++) {
                    try (Session session = sessionFactory.openSession()) {
                        Transaction transaction = session.beginTransaction();
                        try {
                            SpannerInvoice first = new SpannerInvoice("c" + thread);
                            SpannerInvoice second = new SpannerInvoice("c" + thread);
                            session.persist(first);
                            session.persist(second);
                            assertThat(second.getNumber()).as("consecutive in one transaction")
                                    .isEqualTo(first.getNumber() + 1);
                            if (rollBack) {
                                transaction.rollback();
                            } else {
                                transaction.commit();
                                committed.add(first.getNumber());
                                committed.add(second.getNumber());
                            }
                            break;
                        } catch (RuntimeException e) {
                            if (transaction.isActive()) {
                                transaction.rollback();
                            }
                            if (!aborted(e) || attempt == 50) {
                                throw e;
                            }
                        }
                    }
                }
            }
            return new long[0];
        });
        long[] sorted = Concurrently.assertUnique(committed.stream().mapToLong(Long::longValue).toArray());
        Concurrently.assertContiguousFrom(1, sorted);
        assertThat(sorted).hasSize(2 * 2 * 8);
        long stored = sessionFactory.fromTransaction(session -> session
                .createSelectionQuery("select count(i) from SpannerInvoice i", Long.class).getSingleResult());
        assertThat(stored).isEqualTo(sorted.length);
    }

    @Test
    void spannerEmulatorAsyncBatchOrderIdsAreUniqueAcrossThreads() throws Exception {
        requireEmulator();
        long[] ids = Concurrently.run(4, thread -> {
            long[] mine = new long[20];
            for (int i = 0; i < mine.length; i++) {
                for (int attempt = 1; ; attempt++) {
                    try (Session session = sessionFactory.openSession()) {
                        Transaction transaction = session.beginTransaction();
                        try {
                            SpannerOrder order = new SpannerOrder("c" + thread);
                            session.persist(order);
                            transaction.commit();
                            mine[i] = order.getId();
                            break;
                        } catch (RuntimeException e) {
                            if (transaction.isActive()) {
                                transaction.rollback();
                            }
                            if (!aborted(e) || attempt == 50) {
                                throw e;
                            }
                        }
                    }
                }
            }
            return mine;
        });
        assertThat(Concurrently.assertUnique(ids)).hasSize(80);
    }

    private void requireEmulator() {
        if (sessionFactory == null) {
            Servers.missing(SpannerEmulatorHost.NO_EMULATOR);
        }
    }

    /** Whether the failure is Spanner aborting the transaction, which the application retries as a whole. */
    static boolean aborted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == 10) {
                return true;
            }
            if (t.getClass().getSimpleName().contains("Aborted") || String.valueOf(t.getMessage()).contains("ABORTED")) {
                return true;
            }
        }
        return false;
    }
}
