package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TenantDatabases;
import dev.seqgen.testing.TestDatabase;

import java.lang.ref.WeakReference;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An application whose tenants each have a schema of their own (Hibernate's {@code MultiTenantConnectionProvider}
 * setting the tenant's schema on its connections; on MariaDB, whose schemas are databases, the tenant's database),
 * on H2, PostgreSQL and MariaDB: ids and numbers are counted per tenant, a tenant whose schema already holds
 * documents continues above them, and each tenant's numbers are gapless despite rollbacks, with the SYNC counters
 * either in one central table every tenant's connection reaches (a schema-qualified {@code seqgen.table}) or in
 * seqgen's table of each tenant's own schema (an unqualified one).
 */
class SchemaPerTenantTest {

    private static final String PREFIX = HibernateTesting.prefix("hst_");

    /** Where the tenants' SYNC counters are: seqgen's table qualified by the central schema, or unqualified. */
    enum Counters { CENTRAL, TENANT }

    static List<TestDatabase> schemaDatabases() {
        return List.of(TestDatabase.H2, TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    static Stream<Arguments> placements() {
        return schemaDatabases().stream().flatMap(db -> Stream.of(Arguments.of(db, Counters.CENTRAL),
                Arguments.of(db, Counters.TENANT)));
    }

    @ParameterizedTest(name = "{0}, counters {1}")
    @MethodSource("placements")
    void eachTenantsIdsAndNumbersLiveWithItsSchemaAndStartAboveItsRows(TestDatabase db, Counters counters)
            throws Exception {
        // A pool of its own: tenants' connections change their schema, which must not reach other tests' pools.
        HikariDataSource dataSource = db.newPool(8);
        String unqualified = TestDatabase.uniqueTable();
        String table = counters == Counters.CENTRAL ? centralSchema(db, dataSource) + "." + unqualified : unqualified;
        List<String> tenants = List.of("acme", "globex");
        try {
            for (String tenant : tenants) {
                createSchema(db, dataSource, tenant);
                if (counters == Counters.TENANT) {
                    createSeqgenTable(dataSource, schema(db, tenant) + "." + unqualified);
                }
            }
            // seqgen's table exists before the start, as the application's migrations make it.
            createSeqgenTable(dataSource, centralSchema(db, dataSource) + "." + unqualified);
            for (int i = 1; i <= 5; i++) {
                TenantDatabases.execute(dataSource, "INSERT INTO " + schema(db, "acme") + ".schema_doc (id, number,"
                        + " tag) VALUES (" + (i * 10) + ", " + i + ", 0)");
            }
            try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource)
                    .table(table).build()).build();
                    SessionFactory factory = sessionFactory(db, dataSource, registry, SchemaDoc.class)) {
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

                long[] acme = Concurrently.assertUnique(numbers.get("acme").stream().mapToLong(Long::longValue)
                        .toArray());
                assertThat(acme).as("acme: 2 threads x 7 commits, above its 5 documents").hasSize(14);
                Concurrently.assertContiguousFrom(6, acme);
                long[] globex = Concurrently.assertUnique(numbers.get("globex").stream().mapToLong(Long::longValue)
                        .toArray());
                Concurrently.assertContiguousFrom(1, globex);
                assertThat(ids.get("acme")).as("above acme's ids").allMatch(id -> id > 50).doesNotHaveDuplicates();
                assertThat(ids.get("globex")).doesNotHaveDuplicates();
                assertThat(count(dataSource, schema(db, "acme") + ".schema_doc")).isEqualTo(5 + 14);
                assertThat(count(dataSource, schema(db, "globex") + ".schema_doc")).isEqualTo(14);
                assertThat(rows(dataSource, centralSchema(db, dataSource) + "." + unqualified))
                        .as("ids and numbers counted per tenant only: no row of the sequences' own")
                        .doesNotContain("schema_doc_ids", "schema_doc_numbers");
                String acmeCounters = counters == Counters.CENTRAL ? table : schema(db, "acme") + "." + unqualified;
                assertThat(HibernateTesting.nextValue(dataSource, acmeCounters, "schema_doc_numbers#acme"))
                        .isEqualTo(20);
                if (counters == Counters.TENANT) {
                    assertThat(rows(dataSource, schema(db, "globex") + "." + unqualified))
                            .as("globex's table holds globex's counter only")
                            .containsExactly("schema_doc_numbers#globex");
                    assertThat(rows(dataSource, centralSchema(db, dataSource) + "." + unqualified))
                            .as("the central table holds no tenant's SYNC counter")
                            .noneMatch(row -> row.startsWith("schema_doc_numbers#"))
                            .contains("schema_doc_ids#acme", "schema_doc_ids#globex");
                }
            }
        } finally {
            cleanUp(db, dataSource, tenants, centralSchema(db, db.dataSource()) + "." + unqualified);
        }
    }

    /**
     * Known tenants listed under {@code seqgen.series.warm-up}: once the session factory is built, each tenant's number
     * series is open above the documents its schema already holds (read through the tenant's own connection), counted
     * in the tenant's schema or in the central table, and acme's id series holds its first block; the first inserts
     * continue above the documents, and no other row or number appears.
     */
    @ParameterizedTest(name = "{0}, counters {1}")
    @MethodSource("placements")
    void theListedTenantsSeriesAreOpenAboveTheirSchemasRowsBeforeTheFirstInsert(TestDatabase db, Counters counters)
            throws Exception {
        HikariDataSource dataSource = db.newPool(8);
        String unqualified = TestDatabase.uniqueTable();
        String central = centralSchema(db, dataSource) + "." + unqualified;
        String table = counters == Counters.CENTRAL ? central : unqualified;
        List<String> tenants = List.of("acme", "globex");
        try {
            for (String tenant : tenants) {
                createSchema(db, dataSource, tenant);
                if (counters == Counters.TENANT) {
                    createSeqgenTable(dataSource, schema(db, tenant) + "." + unqualified);
                }
            }
            createSeqgenTable(dataSource, central);
            for (int i = 1; i <= 5; i++) {
                TenantDatabases.execute(dataSource, "INSERT INTO " + schema(db, "acme") + ".schema_doc (id, number,"
                        + " tag) VALUES (" + (i * 10) + ", " + i + ", 0)");
            }
            try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource)
                    .table(table).build()).build();
                    SessionFactory factory = sessionFactory(db, dataSource, registry, Map.of(
                            SeqgenHibernate.SERIES_WARM_UP_PREFIX + "schema_doc_numbers", "acme,globex",
                            SeqgenHibernate.SERIES_WARM_UP_PREFIX + "schema_doc_ids", List.of("acme")),
                            SchemaDoc.class)) {
                SeqgenRegistryService service = factory.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                        .requireService(SeqgenRegistryService.class);
                for (String tenant : tenants) {
                    assertThat(service.seriesIfOpen("schema_doc_numbers", new NumberSeries.Key(tenant,
                            List.of(tenant), List.of(tenant), tenant))).as("%s's numbers, open", tenant).isNotNull();
                }
                String acmeCounters = counters == Counters.CENTRAL ? central : schema(db, "acme") + "." + unqualified;
                String globexCounters = counters == Counters.CENTRAL ? central
                        : schema(db, "globex") + "." + unqualified;
                assertThat(HibernateTesting.nextValue(dataSource, acmeCounters, "schema_doc_numbers#acme"))
                        .as("above acme's 5 documents").isEqualTo(6);
                assertThat(HibernateTesting.nextValue(dataSource, globexCounters, "schema_doc_numbers#globex"))
                        .isEqualTo(1);
                assertThat(registry.seriesIfOpen("schema_doc_ids", "acme")).as("acme's ids, open")
                        .isNotNull().satisfies(ids -> assertThat(ids.stats().remaining()).isPositive());
                assertThat(HibernateTesting.nextValue(dataSource, central, "schema_doc_ids#acme"))
                        .as("a block above acme's ids, up to 50").isGreaterThanOrEqualTo(51 + 10);
                assertThat(registry.seriesIfOpen("schema_doc_ids", "globex")).as("not listed").isNull();

                assertThat(insert(factory, "acme")).isEqualTo(6L);
                assertThat(insert(factory, "globex")).isEqualTo(1L);
                assertThat(count(dataSource, schema(db, "acme") + ".schema_doc")).isEqualTo(5 + 1);
                assertThat(HibernateTesting.nextValue(dataSource, acmeCounters, "schema_doc_numbers#acme"))
                        .isEqualTo(7);
                if (counters == Counters.TENANT) {
                    assertThat(rows(dataSource, schema(db, "acme") + "." + unqualified))
                            .containsExactly("schema_doc_numbers#acme");
                    assertThat(rows(dataSource, central)).noneMatch(row -> row.startsWith("schema_doc_numbers"));
                } else {
                    assertThat(rows(dataSource, central)).filteredOn(row -> row.startsWith("schema_doc_numbers"))
                            .containsExactly("schema_doc_numbers#acme", "schema_doc_numbers#globex");
                }
            }
        } finally {
            cleanUp(db, dataSource, tenants, centralSchema(db, db.dataSource()) + "." + unqualified);
        }
    }

    /**
     * Two entities numbered in one series, first used in one transaction, the second one's table holding a number
     * above the first one's (8 against 5): the series' first opening reads both tables and starts above 8, before
     * the transaction takes a number; the second entity's opening, after that number, finds the row above its table
     * and leaves it alone. Had the second table been read only then, the row would have to move above 8, an update
     * that waits for the row lock of that very transaction (for ever on PostgreSQL, until the lock wait timeout on
     * MariaDB and H2).
     */
    @ParameterizedTest(name = "{0}, counters {1}")
    @MethodSource("placements")
    void aSeriesSharedByTwoTablesOpensInOneTransactionWithoutWaitingForItself(TestDatabase db, Counters counters)
            throws Exception {
        HikariDataSource dataSource = db.newPool(8);
        String unqualified = TestDatabase.uniqueTable();
        String table = counters == Counters.CENTRAL ? centralSchema(db, dataSource) + "." + unqualified : unqualified;
        try {
            createSchema(db, dataSource, "acme");
            String schema = schema(db, "acme");
            TenantDatabases.execute(dataSource, "CREATE TABLE " + schema + ".schema_note (id BIGINT PRIMARY KEY,"
                    + " number BIGINT NOT NULL, tag INT NOT NULL)", "INSERT INTO " + schema + ".schema_doc (id, number,"
                    + " tag) VALUES (10, 5, 0)", "INSERT INTO " + schema + ".schema_note (id, number, tag) VALUES (10,"
                    + " 8, 0)");
            if (counters == Counters.TENANT) {
                createSeqgenTable(dataSource, schema + "." + unqualified);
            }
            try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource)
                    .table(table).build()).build();
                    SessionFactory factory = sessionFactory(db, dataSource, registry, SchemaDoc.class,
                            SchemaNote.class);
                    Session session = factory.withOptions().tenantIdentifier("acme").openSession()) {
                Transaction transaction = session.beginTransaction();
                SchemaDoc doc = new SchemaDoc(1);
                session.persist(doc);
                session.flush();
                SchemaNote note = new SchemaNote(1);
                session.persist(note);
                session.flush();
                transaction.commit();
                assertThat(List.of(doc.number(), note.number())).containsExactly(9L, 10L);
            }
        } finally {
            cleanUp(db, dataSource, List.of("acme"), centralSchema(db, db.dataSource()) + "." + unqualified);
        }
    }

    /**
     * Counters in the tenant's schema need seqgen's table there: a tenant schema without it fails the insert, naming
     * the table, the tenant and how to create it, with nothing written.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaDatabases")
    void aTenantSchemaWithoutSeqgensTableFailsTheInsertSayingHowToCreateIt(TestDatabase db) throws Exception {
        HikariDataSource dataSource = db.newPool(4);
        String table = TestDatabase.uniqueTable();
        try {
            createSchema(db, dataSource, "initech");
            try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource)
                    .table(table).build()).build();
                    SessionFactory factory = sessionFactory(db, dataSource, registry, SchemaDoc.class);
                    Session session = factory.withOptions().tenantIdentifier("initech").openSession()) {
                Transaction transaction = session.beginTransaction();
                assertThatThrownBy(() -> {
                    session.persist(new SchemaDoc(1));
                    session.flush();
                }).satisfies(e -> assertThat(HibernateTesting.messages(e)).contains("sequence 'schema_doc_numbers'",
                        "tenant 'initech'", "cannot read table " + table, "nothing was inserted",
                        "CREATE TABLE IF NOT EXISTS " + table + " (name VARCHAR(64) NOT NULL PRIMARY KEY",
                        "or qualify seqgen.table"));
                transaction.rollback();
            }
            assertThat(count(dataSource, schema(db, "initech") + ".schema_doc")).isZero();
        } finally {
            cleanUp(db, dataSource, List.of("initech"), table);
        }
    }

    /** One SYNC series for all tenants lives in no tenant's schema: its table must be qualified, or start-up says. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaDatabases")
    void aSyncNumberSharedByAllTenantsWithAnUnqualifiedTableFailsTheStartUpSayingWhy(TestDatabase db) {
        String table = TestDatabase.uniqueTable();
        try (HikariDataSource pool = db.newPool(4);
                SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(pool).table(table)
                        .build()).build()) {
            assertThatThrownBy(() -> sessionFactory(db, pool, registry, SharedNumberDoc.class).close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e)).contains(
                            "sequence 'shared_doc_numbers'", "@SeqgenNumber(perTenant = false)",
                            "seqgen's table " + table + " is not qualified by a schema",
                            "seqgen.table=public." + table));
        } finally {
            db.dropTable(table);
        }
    }

    /**
     * One series for all tenants cannot start above the numbers of tenants seqgen learns of only at run time: without
     * an initial value the start-up fails saying what to set; with one (1000), the series starts there, reads no
     * tenant's table (acme's holds 5000) and numbers both tenants' documents in one gapless run.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("schemaDatabases")
    void aNumberSharedByAllTenantsStartsAtTheInitialValueItMustSet(TestDatabase db) throws Exception {
        HikariDataSource dataSource = db.newPool(4);
        String table = centralSchema(db, dataSource) + "." + TestDatabase.uniqueTable();
        List<String> tenants = List.of("acme", "globex");
        try {
            for (String tenant : tenants) {
                createSchema(db, dataSource, tenant);
                TenantDatabases.execute(dataSource, "CREATE TABLE " + schema(db, tenant) + ".shared_doc (id BIGINT"
                        + " PRIMARY KEY, number BIGINT NOT NULL)");
            }
            TenantDatabases.execute(dataSource, "INSERT INTO " + schema(db, "acme") + ".shared_doc (id, number)"
                    + " VALUES (1, 5000)");
            try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource)
                    .table(table).build()).build()) {
                assertThatThrownBy(() -> sessionFactory(db, dataSource, registry, SharedNumberDoc.class).close())
                        .satisfies(e -> assertThat(HibernateTesting.messages(e)).contains(
                                "sequence 'shared_doc_numbers'", "@SeqgenNumber(perTenant = false)",
                                "no initial value is set", "seqgen.sequences.shared_doc_numbers.initial-value",
                                "remove perTenant = false"));
                try (SessionFactory factory = sessionFactory(db, dataSource, registry, SharedStartDoc.class)) {
                    List<Long> numbers = new ArrayList<>();
                    for (int i = 0; i < 4; i++) {
                        try (Session session = factory.withOptions().tenantIdentifier(tenants.get(i % 2))
                                .openSession()) {
                            Transaction transaction = session.beginTransaction();
                            SharedStartDoc doc = new SharedStartDoc(10 + i);
                            session.persist(doc);
                            session.flush();
                            transaction.commit();
                            numbers.add(doc.number());
                        }
                    }
                    assertThat(numbers).containsExactly(1000L, 1001L, 1002L, 1003L);
                }
            }
        } finally {
            cleanUp(db, dataSource, tenants, table);
        }
    }

    /**
     * A tenant's registry of counters (its SYNC numbers counted in its own schema) released as idle is dropped at a
     * later opening of a series and collected, and the tenant's next insert continues its numbers without a gap.
     * Time is the registry's ticker; the tenant's registry has the application registry's clock and idle timeout.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("idleDatabases")
    void anIdleTenantsRegistryIsDroppedAndItsNextInsertContinuesGapless(TestDatabase db) throws Exception {
        HikariDataSource dataSource = db.newPool(4);
        String table = TestDatabase.uniqueTable();
        List<String> tenants = List.of("acme", "globex");
        Duration idle = Duration.ofMinutes(10);
        AtomicLong now = new AtomicLong();
        try {
            for (String tenant : tenants) {
                createSchema(db, dataSource, tenant);
                createSeqgenTable(dataSource, schema(db, tenant) + "." + table);
            }
            createSeqgenTable(dataSource, centralSchema(db, dataSource) + "." + table);
            try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource)
                    .table(table).build()).ticker(now::get).seriesIdleTimeout(idle).build();
                    SessionFactory factory = sessionFactory(db, dataSource, registry, SchemaDoc.class)) {
                assertThat(insert(factory, "acme")).isEqualTo(1L);
                assertThat(insert(factory, "acme")).isEqualTo(2L);
                TenantCounters counters = factory.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                        .requireService(SeqgenRegistryService.class).tenantCounters();
                SequenceRegistry acme = counters.registryIfMade("acme");
                assertThat(acme).isNotNull();
                assertThat(acme.releaseIdleSeries()).as("used since the last look").isZero();
                now.addAndGet(idle.toNanos());
                assertThat(acme.releaseIdleSeries()).as("acme's series, idle for the timeout").isEqualTo(1);

                assertThat(insert(factory, "globex")).as("an opening, an idle timeout later").isEqualTo(1L);
                assertThat(counters.registryIfMade("acme")).as("acme's registry dropped").isNull();
                assertThat(counters.registryIfMade("globex")).isNotNull();
                WeakReference<SequenceRegistry> dropped = new WeakReference<>(acme);
                acme = null;
                for (int round = 0; round < 10 && !dropped.refersTo(null); round++) {
                    System.gc();
                }
                assertThat(dropped.refersTo(null)).as("nothing holds acme's dropped registry").isTrue();

                assertThat(insert(factory, "acme")).as("acme continues without a gap").isEqualTo(3L);
                assertThat(counters.registryIfMade("acme")).as("a registry of acme's again").isNotNull();
                assertThat(HibernateTesting.nextValue(dataSource, schema(db, "acme") + "." + table,
                        "schema_doc_numbers#acme")).isEqualTo(4);
            }
        } finally {
            cleanUp(db, dataSource, tenants, centralSchema(db, db.dataSource()) + "." + table);
        }
    }

    static List<TestDatabase> idleDatabases() {
        return List.of(TestDatabase.H2, TestDatabase.POSTGRESQL);
    }

    /** One document of the tenant, committed: its number. */
    private static long insert(SessionFactory factory, String tenant) {
        try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
            Transaction transaction = session.beginTransaction();
            SchemaDoc doc = new SchemaDoc(0);
            session.persist(doc);
            transaction.commit();
            return doc.number();
        }
    }

    private static SessionFactory sessionFactory(TestDatabase db, DataSource dataSource, SequenceRegistry registry,
            Class<?>... entities) {
        return sessionFactory(db, dataSource, registry, Map.of(), entities);
    }

    private static SessionFactory sessionFactory(TestDatabase db, DataSource dataSource, SequenceRegistry registry,
            Map<String, Object> settings, Class<?>... entities) {
        Configuration configuration = new Configuration();
        configuration.getProperties().putAll(settings);
        for (Class<?> entity : entities) {
            configuration.addAnnotatedClass(entity);
        }
        configuration.getProperties().put(AvailableSettings.MULTI_TENANT_CONNECTION_PROVIDER,
                new TenantDatabases.SchemaPerTenant(dataSource, tenant -> schema(db, tenant)));
        configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
        configuration.getProperties().put(SeqgenHibernate.REGISTRY, registry);
        return configuration.buildSessionFactory();
    }

    /** A tenant's schema: on MariaDB a database, whose name the test user may create ({@code seqgen_test_*}). */
    private static String schema(TestDatabase db, String tenant) {
        return db == TestDatabase.MARIADB ? TenantDatabases.currentDatabase(db) + "_" + PREFIX + tenant
                : PREFIX + tenant;
    }

    private static String centralSchema(TestDatabase db, DataSource dataSource) {
        return switch (db) {
            case H2 -> "PUBLIC";
            case MARIADB -> TenantDatabases.currentDatabase(db);
            default -> "public";
        };
    }

    private static void createSchema(TestDatabase db, DataSource dataSource, String tenant) {
        dropSchema(db, dataSource, tenant);
        String schema = schema(db, tenant);
        TenantDatabases.execute(dataSource, (db == TestDatabase.MARIADB ? "CREATE DATABASE " : "CREATE SCHEMA ")
                + schema, "CREATE TABLE " + schema + ".schema_doc (id BIGINT PRIMARY KEY, number BIGINT NOT NULL,"
                + " tag INT NOT NULL)");
    }

    /** Drops the tenants' schemas, closes the tenants' pool and drops seqgen's table with its kept ranges. */
    private static void cleanUp(TestDatabase db, HikariDataSource dataSource, List<String> schemas,
            String seqgenTable) {
        for (String schema : schemas) {
            dropSchema(db, dataSource, schema);
        }
        dataSource.close();
        db.dropTable(seqgenTable);
        db.dropTable(seqgenTable + "_kept");
    }

    private static void dropSchema(TestDatabase db, DataSource dataSource, String tenant) {
        TenantDatabases.execute(dataSource, db == TestDatabase.MARIADB ? "DROP DATABASE IF EXISTS " + schema(db, tenant)
                : "DROP SCHEMA IF EXISTS " + schema(db, tenant) + " CASCADE");
    }

    /** seqgen's table (and its table of kept ranges) in a tenant's schema, as the tenant's migrations would make it. */
    static void createSeqgenTable(DataSource dataSource, String qualified) {
        try (JdbcSequenceStore store = JdbcSequenceStore.builder(dataSource).table(qualified).build()) {
            store.createTableIfMissing();
        }
    }

    static long count(DataSource dataSource, String table) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The names of the rows of a seqgen table. */
    static List<String> rows(DataSource dataSource, String table) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT name FROM " + table + " ORDER BY name")) {
            while (rs.next()) {
                rows.add(rs.getString(1));
            }
        }
        return rows;
    }
}
