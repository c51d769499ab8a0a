package dev.seqgen.spanner.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.spanner.Mutation;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.hibernate.SeqgenHibernate;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.jdbc.SpannerJdbcClients;
import dev.seqgen.testing.LogRecords;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.logging.Level;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Spanner store serving a Hibernate session factory: with the entities on H2 its database cannot hold their
 * tables, so the first id is served without reading them, and a warning says what was not adopted and what to do;
 * with the entities on Spanner (the same emulator database, through the JDBC driver) it still reads them and starts
 * above the ids they hold.
 */
class EntitiesBesideTheSpannerStoreEmulatorTest {

    /** Closes the Spanner JDBC driver's clients while the emulator's database is there ({@link SpannerJdbcClients}). */
    @AfterAll
    static void closeSpannerJdbcClients() {
        SpannerJdbcClients.close();
    }

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator(
            "CREATE TABLE SpannerOrder (id INT64 NOT NULL, customer STRING(255)) PRIMARY KEY (id)");

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void entitiesOnH2GetTheirFirstIdWithAWarningThatTheSpannerStoreCannotAdoptTheirRows() throws Exception {
        JdbcDataSource h2 = new JdbcDataSource();
        h2.setURL("jdbc:h2:mem:beside-spanner-" + ThreadLocalRandom.current().nextInt(1 << 30) + ";DB_CLOSE_DELAY=-1");
        try (SequenceRegistry registry = registry("elsewhere_sequences");
                SessionFactory sessionFactory = sessionFactory(h2, "org.hibernate.dialect.H2Dialect", "create",
                        registry)) {
            try (Connection connection = h2.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("INSERT INTO SpannerOrder (id, customer) VALUES (1000, 'before'), (1001, 'before')");
            }
            assertThat(logs.messages(Level.WARNING)).singleElement().asString()
                    .contains("sequence 'orders'", "SpannerOrder", "application's h2 database",
                            "spanner store (SpannerSequenceStore[database " + emulator.databaseId()
                                    + ", table elsewhere_sequences])", "seqgen.sequences.orders.initial-value");

            assertThat(persistOrders(sessionFactory, 2)).as("from the row, nothing read from H2").containsExactly(1L,
                    2L);
            assertThat(logs.messages(Level.WARNING)).as("once, when the sequence started").hasSize(1);
        }
    }

    @Test
    void entitiesOnSpannerAreReadAndTheSequenceStartsAboveTheirIds() throws Exception {
        List<Mutation> existing = new ArrayList<>();
        for (long id = 1; id <= 66; id++) {
            existing.add(Mutation.newInsertBuilder("SpannerOrder").set("id").to(id).set("customer").to("before")
                    .build());
        }
        emulator.client().write(existing);
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl("jdbc:cloudspanner://" + emulator.host() + "/projects/" + SpannerEmulator.PROJECT
                + "/instances/" + emulator.instanceId() + "/databases/" + emulator.databaseId()
                + "?autoConfigEmulator=true");
        pool.setMaximumPoolSize(2);
        try (HikariDataSource spanner = new HikariDataSource(pool);
                SequenceRegistry registry = registry("same_database_sequences");
                SessionFactory sessionFactory = sessionFactory(spanner, "org.hibernate.dialect.SpannerDialect", "none",
                        registry)) {
            assertThat(persistOrders(sessionFactory, 1)).as("above the 66 ids already there").containsExactly(67L);
            assertThat(logs.messages(Level.WARNING)).isEmpty();
        }
    }

    private static SequenceRegistry registry(String table) {
        return SequenceRegistry.builder(emulator.store(table))
                .defaults(SequenceSettings.builder().acquireTimeout(SpannerEmulator.PATIENCE).build()).build();
    }

    private static SessionFactory sessionFactory(DataSource dataSource, String dialect, String ddl,
            SequenceRegistry registry) {
        Configuration configuration = new Configuration().addAnnotatedClass(SpannerOrder.class);
        configuration.getProperties().put(AvailableSettings.DATASOURCE, dataSource);
        configuration.getProperties().put(AvailableSettings.DIALECT, dialect);
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, ddl);
        configuration.getProperties().put(SeqgenHibernate.REGISTRY, registry);
        return configuration.buildSessionFactory();
    }

    /** Persists orders, one transaction each, retried while the emulator aborts it; returns their ids. */
    private static List<Long> persistOrders(SessionFactory sessionFactory, int count) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(SpannerEmulator.retryingAborted(() -> sessionFactory.fromTransaction(session -> {
                SpannerOrder order = new SpannerOrder("after");
                session.persist(order);
                return order.getId();
            })));
        }
        return ids;
    }
}
