package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TenantDatabases;
import dev.seqgen.testing.TestDatabase;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An application whose tenants each have a database of their own (a {@code MultiTenantConnectionProvider} handing
 * out connections of a pool on the tenant's database), on PostgreSQL, where a tenant's connection cannot reach
 * another database's table, and MariaDB. seqgen's table is not qualified, so each tenant's SYNC numbers count in
 * seqgen's table of the tenant's own database, while the ids (ASYNC_BATCH) count per tenant in the application's
 * table. Two session factories with registries of their own stand for two JVMs: they start the same tenants' series
 * at the same moment, and each tenant's ids are unique, its numbers gapless despite rollbacks and above the
 * documents its database already holds.
 */
class DatabasePerTenantTest {

    private static final List<String> TENANTS = List.of("acme", "globex");

    static List<TestDatabase> serverDatabases() {
        return List.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverDatabases")
    void eachTenantsCountersLiveInItsDatabaseAndTwoInstancesShareThem(TestDatabase db) throws Exception {
        String table = TestDatabase.uniqueTable();
        Map<String, String> databases = new LinkedHashMap<>();
        for (String tenant : TENANTS) {
            databases.put(tenant, TenantDatabases.database(db, "dpt_" + tenant));
        }
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            for (String tenant : TENANTS) {
                try (HikariDataSource pool = TenantDatabases.pool(db, databases.get(tenant), 1)) {
                    createTenantTables(pool, table, true);
                    if (tenant.equals("acme")) {
                        for (int i = 1; i <= 5; i++) {
                            TenantDatabases.execute(pool, "INSERT INTO schema_doc (id, number, tag) VALUES (" + (i * 10)
                                    + ", " + i + ", 0)");
                        }
                    }
                }
            }
            List<SessionFactory> instances = new ArrayList<>();
            for (int instance = 0; instance < 2; instance++) {
                instances.add(instance(db, databases, table, opened));
            }
            Map<String, List<Long>> numbers = new TreeMap<>();
            Map<String, List<Long>> ids = new TreeMap<>();
            for (String tenant : TENANTS) {
                numbers.put(tenant, Collections.synchronizedList(new ArrayList<>()));
                ids.put(tenant, Collections.synchronizedList(new ArrayList<>()));
            }
            // Four threads start at once: each instance's first document of each tenant, so both instances create
            // and adopt each tenant's series at the same time.
            Concurrently.run(4, thread -> {
                SessionFactory factory = instances.get(thread % 2);
                String tenant = TENANTS.get(thread / 2);
                for (int t = 0; t < 9; t++) {
                    try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
                        Transaction transaction = session.beginTransaction();
                        SchemaDoc doc = new SchemaDoc(thread);
                        session.persist(doc);
                        session.flush();
                        if (t % 3 == 1) {
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
            assertThat(acme).as("acme: 2 instances x 6 commits").hasSize(12);
            Concurrently.assertContiguousFrom(6, acme);
            long[] globex = Concurrently.assertUnique(numbers.get("globex").stream().mapToLong(Long::longValue)
                    .toArray());
            Concurrently.assertContiguousFrom(1, globex);
            assertThat(ids.get("acme")).as("unique across instances, above acme's ids").allMatch(id -> id > 50)
                    .doesNotHaveDuplicates();
            assertThat(ids.get("globex")).doesNotHaveDuplicates();
            DataSource central = db.dataSource();
            for (String tenant : TENANTS) {
                try (HikariDataSource pool = TenantDatabases.pool(db, databases.get(tenant), 1)) {
                    assertThat(SchemaPerTenantTest.count(pool, "schema_doc")).isEqualTo(tenant.equals("acme")
                            ? 5 + 12 : 12);
                    assertThat(SchemaPerTenantTest.rows(pool, table)).as("the tenant's own counter, alone")
                            .containsExactly("schema_doc_numbers#" + tenant);
                    assertThat(HibernateTesting.nextValue(pool, table, "schema_doc_numbers#" + tenant))
                            .isEqualTo(tenant.equals("acme") ? 18 : 13);
                }
            }
            assertThat(SchemaPerTenantTest.rows(central, table)).as("the application's table counts the ids")
                    .contains("schema_doc_ids#acme", "schema_doc_ids#globex")
                    .noneMatch(row -> row.startsWith("schema_doc_numbers#"));
        } finally {
            closeAll(opened);
            dropTables(db, databases.values(), table);
        }
    }

    /** SYNC ids count in each tenant's database too: gapless per tenant, a rolled-back id taken again. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("serverDatabases")
    void syncIdsAreGaplessPerTenantDatabase(TestDatabase db) throws Exception {
        String table = TestDatabase.uniqueTable();
        Map<String, String> databases = new LinkedHashMap<>();
        for (String tenant : TENANTS) {
            databases.put(tenant, TenantDatabases.database(db, "dpt_" + tenant));
        }
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            for (String database : databases.values()) {
                try (HikariDataSource pool = TenantDatabases.pool(db, database, 1)) {
                    TenantDatabases.execute(pool, "DROP TABLE IF EXISTS schema_ticket", "CREATE TABLE schema_ticket"
                            + " (id BIGINT PRIMARY KEY)");
                    SchemaPerTenantTest.createSeqgenTable(pool, table);
                }
            }
            SessionFactory factory = instance(db, databases, table, opened, SchemaTicket.class);
            List<Long> acme = new ArrayList<>();
            acme.add(ticket(factory, "acme", false));
            ticket(factory, "acme", true);
            acme.add(ticket(factory, "acme", false));
            long globex = ticket(factory, "globex", false);
            assertThat(acme).as("the rolled-back id taken again").containsExactly(1L, 2L);
            assertThat(globex).isEqualTo(1L);
            try (HikariDataSource pool = TenantDatabases.pool(db, databases.get("acme"), 1)) {
                assertThat(HibernateTesting.nextValue(pool, table, "schema_ticket_ids#acme")).isEqualTo(3);
            }
        } finally {
            closeAll(opened);
            for (String database : databases.values()) {
                try (HikariDataSource pool = TenantDatabases.pool(db, database, 1)) {
                    TenantDatabases.execute(pool, "DROP TABLE IF EXISTS schema_ticket");
                }
            }
            dropTables(db, databases.values(), table);
        }
    }

    private static long ticket(SessionFactory factory, String tenant, boolean rollBack) {
        try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
            Transaction transaction = session.beginTransaction();
            SchemaTicket ticket = new SchemaTicket();
            session.persist(ticket);
            session.flush();
            if (rollBack) {
                transaction.rollback();
            } else {
                transaction.commit();
            }
            return ticket.id();
        }
    }

    /** A tenant's database without seqgen's table: its insert fails, naming the table, the tenant and the script. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("serverDatabases")
    void aTenantDatabaseWithoutSeqgensTableFailsTheInsertSayingHowToCreateIt(TestDatabase db) throws Exception {
        String table = TestDatabase.uniqueTable();
        String database = TenantDatabases.database(db, "dpt_initech");
        List<AutoCloseable> opened = new ArrayList<>();
        try (HikariDataSource pool = TenantDatabases.pool(db, database, 2)) {
            createTenantTables(pool, table, false);
            SessionFactory factory = instance(db, Map.of("initech", database), table, opened);
            try (Session session = factory.withOptions().tenantIdentifier("initech").openSession()) {
                Transaction transaction = session.beginTransaction();
                assertThatThrownBy(() -> {
                    session.persist(new SchemaDoc(1));
                    session.flush();
                }).satisfies(e -> assertThat(HibernateTesting.messages(e)).contains("sequence 'schema_doc_numbers'",
                        "tenant 'initech'", "cannot read table " + table, "nothing was inserted",
                        "CREATE TABLE IF NOT EXISTS " + table + " (name VARCHAR(64) NOT NULL PRIMARY KEY"));
                transaction.rollback();
            }
            assertThat(SchemaPerTenantTest.count(pool, "schema_doc")).isZero();
        } finally {
            closeAll(opened);
            dropTables(db, List.of(database), table);
        }
    }

    /**
     * One instance: a registry of its own over the application's database (seqgen's table unqualified), pools of its
     * own on the tenants' databases, and a session factory; all added to {@code opened}, to be closed in reverse.
     */
    private static SessionFactory instance(TestDatabase db, Map<String, String> databases, String table,
            List<AutoCloseable> opened) {
        return instance(db, databases, table, opened, SchemaDoc.class);
    }

    private static SessionFactory instance(TestDatabase db, Map<String, String> databases, String table,
            List<AutoCloseable> opened, Class<?> entity) {
        Map<String, DataSource> pools = new TreeMap<>();
        databases.forEach((tenant, database) -> {
            HikariDataSource pool = TenantDatabases.pool(db, database, 3);
            opened.add(pool);
            pools.put(tenant, pool);
        });
        SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(db.dataSource()).table(table)
                .build()).build();
        opened.add(registry);
        Configuration configuration = new Configuration().addAnnotatedClass(entity);
        configuration.getProperties().put(AvailableSettings.MULTI_TENANT_CONNECTION_PROVIDER,
                new TenantDatabases.DatabasePerTenant(db.dataSource(), pools));
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
        configuration.getProperties().put(SeqgenHibernate.REGISTRY, registry);
        SessionFactory factory = configuration.buildSessionFactory();
        opened.add(factory);
        return factory;
    }

    /** The tenant's documents table, empty, and seqgen's table if asked, as the tenant's migrations would make them. */
    private static void createTenantTables(DataSource tenant, String table, boolean seqgenTable) {
        TenantDatabases.execute(tenant, "DROP TABLE IF EXISTS schema_doc", "DROP TABLE IF EXISTS " + table,
                "DROP TABLE IF EXISTS " + table + "_kept", "CREATE TABLE schema_doc (id BIGINT PRIMARY KEY,"
                        + " number BIGINT NOT NULL, tag INT NOT NULL)");
        if (seqgenTable) {
            SchemaPerTenantTest.createSeqgenTable(tenant, table);
        }
    }

    /** Drops seqgen's table (and its table of kept ranges) from the application's and the tenants' databases. */
    private static void dropTables(TestDatabase db, Iterable<String> tenantDatabases, String table) {
        db.dropTable(table);
        db.dropTable(table + "_kept");
        for (String database : tenantDatabases) {
            try (HikariDataSource pool = TenantDatabases.pool(db, database, 1)) {
                TenantDatabases.execute(pool, "DROP TABLE IF EXISTS " + table, "DROP TABLE IF EXISTS " + table
                        + "_kept");
            }
        }
    }

    private static void closeAll(List<AutoCloseable> opened) throws Exception {
        Exception first = null;
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
