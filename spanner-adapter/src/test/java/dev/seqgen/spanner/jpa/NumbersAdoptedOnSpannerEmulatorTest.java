package dev.seqgen.spanner.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.spanner.jdbc.SpannerJdbcClients;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * An invoice table on Cloud Spanner (the emulator) that already holds the numbers 1..66 adopts a SYNC
 * {@code @SeqgenNumber}: the next committed number is 67, and the numbers stay gapless from there, with a
 * transaction rolled back in between.
 */
class NumbersAdoptedOnSpannerEmulatorTest {

    /** Closes the Spanner JDBC driver's clients while the emulator's database is there ({@link SpannerJdbcClients}). */
    @AfterAll
    static void closeSpannerJdbcClients() {
        SpannerJdbcClients.close();
    }

    @Test
    void aNumberColumnHolding1To66GoesOnAt67() throws Exception {
        String host = SpannerEmulatorHost.host();
        if (host == null) {
            Servers.missing(SpannerEmulatorHost.NO_EMULATOR);
            return;
        }
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl("jdbc:cloudspanner://" + host + "/projects/seqgen-test/instances/seqgen-test/databases/num-"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36).substring(0, 8)
                + "?autoConfigEmulator=true");
        pool.setMaximumPoolSize(4);
        try (HikariDataSource dataSource = new HikariDataSource(pool)) {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE SpannerNumberedInvoice (id INT64 NOT NULL, number INT64 NOT NULL)"
                        + " PRIMARY KEY (id)");
                // Numbered before seqgen: ids and numbers 1..66, written by another program.
                connection.setAutoCommit(false);
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO SpannerNumberedInvoice (id, number) VALUES (?, ?)")) {
                    for (long n = 1; n <= 66; n++) {
                        insert.setLong(1, n);
                        insert.setLong(2, n);
                        insert.addBatch();
                    }
                    insert.executeBatch();
                }
                connection.commit();
            }
            Configuration configuration = new Configuration().addAnnotatedClass(SpannerNumberedInvoice.class);
            configuration.getProperties().put(AvailableSettings.DATASOURCE, dataSource);
            configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
            configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
            configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
            List<Long> committed = new ArrayList<>();
            try (SessionFactory sessionFactory = configuration.buildSessionFactory()) {
                for (int i = 0; i < 4; i++) {
                    boolean rollBack = i == 1;
                    try (Session session = sessionFactory.openSession()) {
                        Transaction transaction = session.beginTransaction();
                        SpannerNumberedInvoice invoice = new SpannerNumberedInvoice();
                        session.persist(invoice);
                        session.flush();
                        if (rollBack) {
                            transaction.rollback();
                        } else {
                            transaction.commit();
                            committed.add(invoice.getNumber());
                        }
                    }
                }
            }
            assertThat(committed).as("above the adopted 1..66, gapless past the rollback").containsExactly(67L, 68L,
                    69L);
        }
    }
}
