package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An application whose tenants each have a schema of their own (Hibernate's {@code MultiTenantConnectionProvider}
 * setting the tenant's schema on its connections), seqgen's rows in one central table every tenant's connection
 * reaches (a schema-qualified {@code seqgen.table}): ids and numbers are counted per tenant, a tenant whose schema
 * already holds documents continues above them, and each tenant's numbers are gapless despite rollbacks.
 */
class SchemaPerTenantTest {

    private static final String PREFIX = HibernateTesting.prefix("hst_");

    static List<TestDatabase> schemaDatabases() {
        return List.of(TestDatabase.H2, TestDatabase.POSTGRESQL);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaDatabases")
    void eachTenantsIdsAndNumbersLiveWithItsSchemaAndStartAboveItsRows(TestDatabase db) throws Exception {
        // A pool of its own: tenants' connections change their schema, which must not reach other tests' pools.
        com.zaxxer.hikari.HikariDataSource dataSource = db.newPool(8);
        String central = centralSchema(db) + "." + TestDatabase.uniqueTable();
        List<String> tenants = List.of("acme", "globex");
        for (String tenant : tenants) {
            String schema = schema(tenant);
            execute(dataSource, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            execute(dataSource, "CREATE SCHEMA " + schema);
            execute(dataSource, "CREATE TABLE " + schema + ".schema_doc (id BIGINT PRIMARY KEY, number BIGINT NOT NULL,"
                    + " tag INT NOT NULL)");
        }
        for (int i = 1; i <= 5; i++) {
            execute(dataSource, "INSERT INTO " + schema("acme") + ".schema_doc (id, number, tag) VALUES (" + (i * 10)
                    + ", " + i + ", 0)");
        }
        try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource).table(central)
                .build()).build();
                SessionFactory factory = sessionFactory(dataSource, registry)) {
            Map<String, List<Long>> numbers = new TreeMap<>();
            Map<String, List<Long>> ids = new TreeMap<>();
            for (String tenant : tenants) {
                numbers.put(tenant, Collections.synchronizedList(new ArrayList<>()));
                ids.put(tenant, Collections.synchronizedList(new ArrayList<>()));
            }
            Concurrently.run(4, thread -> {
                String tenant = tenants.get(thread % 2);
                for (int t = 0; t < 10; t++) {
                    try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
                        Transaction transaction = session.beginTransaction();
                        SchemaDoc doc = new SchemaDoc(thread);
                        session.persist(doc);
                        session.flush();
                        if (t % 3 == 2) {
                            transaction.rollback();
                        } else {
                            transaction.commit();
                            numbers.get(tenant).add(doc.number());
                            ids.get(tenant).add(doc.id());
                        }
                    }
                }
                return new long[0];
            });

            long[] acme = Concurrently.assertUnique(numbers.get("acme").stream().mapToLong(Long::longValue).toArray());
            assertThat(acme).as("acme: 2 threads x 7 commits, above its 5 documents").hasSize(14);
            Concurrently.assertContiguousFrom(6, acme);
            long[] globex = Concurrently.assertUnique(numbers.get("globex").stream().mapToLong(Long::longValue)
                    .toArray());
            Concurrently.assertContiguousFrom(1, globex);
            assertThat(ids.get("acme")).as("above acme's ids").allMatch(id -> id > 50).doesNotHaveDuplicates();
            assertThat(ids.get("globex")).doesNotHaveDuplicates();
            assertThat(count(dataSource, schema("acme"))).isEqualTo(5 + 14);
            assertThat(count(dataSource, schema("globex"))).isEqualTo(14);
            assertThat(HibernateTesting.nextValue(dataSource, central, "schema_doc_numbers#acme")).isEqualTo(20);
        } finally {
            for (String tenant : tenants) {
                execute(dataSource, "DROP SCHEMA IF EXISTS " + schema(tenant) + " CASCADE");
            }
            dataSource.close();
            db.dropTable(central);
        }
    }

    /** SYNC runs on the tenant's connection: seqgen's table must be qualified, or the start-up says so. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaDatabases")
    void aSyncNumberWithAnUnqualifiedTableFailsTheStartUpSayingWhy(TestDatabase db) {
        String table = TestDatabase.uniqueTable();
        try (com.zaxxer.hikari.HikariDataSource pool = db.newPool(4);
                SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(pool).table(table)
                        .build()).build()) {
            assertThatThrownBy(() -> sessionFactory(pool, registry).close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e)).contains("sequence 'schema_doc_numbers'",
                            "seqgen's table " + table + " is not qualified by a schema",
                            "seqgen.table=public." + table));
        } finally {
            db.dropTable(table);
        }
    }

    private static SessionFactory sessionFactory(DataSource dataSource, SequenceRegistry registry) {
        Configuration configuration = new Configuration().addAnnotatedClass(SchemaDoc.class);
        configuration.getProperties().put(AvailableSettings.MULTI_TENANT_CONNECTION_PROVIDER,
                new SchemaPerTenant(dataSource));
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
        configuration.getProperties().put(SeqgenHibernate.REGISTRY, registry);
        configuration.getProperties().put(SeqgenHibernate.SCHEMA_EXPORT, "false");
        return configuration.buildSessionFactory();
    }

    private static String schema(String tenant) {
        return PREFIX + tenant;
    }

    private static String centralSchema(TestDatabase db) {
        return db == TestDatabase.H2 ? "PUBLIC" : "public";
    }

    private static void execute(DataSource dataSource, String sql) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }
    }

    private static long count(DataSource dataSource, String schema) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + schema + ".schema_doc")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Each tenant's connections set its schema, as schema-per-tenant applications do. */
    static final class SchemaPerTenant implements MultiTenantConnectionProvider<String> {

        private static final long serialVersionUID = 1L;

        private final transient DataSource dataSource;
        private volatile String defaultSchema;

        SchemaPerTenant(DataSource dataSource) {
            this.dataSource = dataSource;
        }

        @Override
        public Connection getAnyConnection() throws SQLException {
            return dataSource.getConnection();
        }

        @Override
        public void releaseAnyConnection(Connection connection) throws SQLException {
            connection.close();
        }

        @Override
        public Connection getConnection(String tenant) throws SQLException {
            Connection connection = dataSource.getConnection();
            defaultSchema = connection.getSchema();
            connection.setSchema(normalized(connection, schema(tenant)));
            return connection;
        }

        private static String normalized(Connection connection, String schema) throws SQLException {
            return connection.getMetaData().storesUpperCaseIdentifiers() ? schema.toUpperCase(Locale.ROOT) : schema;
        }

        @Override
        public void releaseConnection(String tenant, Connection connection) throws SQLException {
            connection.setSchema(defaultSchema);
            connection.close();
        }

        @Override
        public boolean supportsAggressiveRelease() {
            return false;
        }

        @Override
        public boolean isUnwrappableAs(Class<?> unwrapType) {
            return false;
        }

        @Override
        public <T> T unwrap(Class<T> unwrapType) {
            throw new UnsupportedOperationException();
        }
    }
}
