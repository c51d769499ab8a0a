package dev.seqgen.hibernate;

import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * seqgen's table is part of Hibernate's schema: {@code hbm2ddl.auto} creates, updates, validates and drops it,
 * and generated schema scripts contain it. The store never creates the table here
 * ({@code seqgen.schema.create=false}), so a table that exists was made by Hibernate.
 */
class SchemaExportTest {

    private static final String PREFIX = HibernateTesting.prefix("hse_");

    private static final String TABLE = PREFIX + "seqgen";
    /** The table of ranges kept for the fleet, beside {@link #TABLE}. */
    private static final String KEPT_TABLE = PREFIX + "seqgen_kept";

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void createMakesTheTableAndCreateDropDropsItAfterTheUnusedValuesAreGivenBack(TestDatabase db) {
        dropAll(db);
        try (SessionFactory sessionFactory = sessionFactory(db, "create-drop")) {
            assertThat(tableExists(db, TABLE)).isTrue();
            assertThat(tableExists(db, KEPT_TABLE)).isTrue();
            AsyncTicket ticket = new AsyncTicket(1);
            HibernateTesting.inTransaction(sessionFactory, session -> session.persist(ticket));
            assertThat(ticket.id()).isEqualTo(1);
        }
        assertThat(tableExists(db, TABLE)).isFalse();
        assertThat(tableExists(db, KEPT_TABLE)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void updateAddsAMissingTable(TestDatabase db) {
        dropAll(db);
        try (SessionFactory sessionFactory = sessionFactory(db, "update")) {
            AsyncTicket ticket = new AsyncTicket(1);
            HibernateTesting.inTransaction(sessionFactory, session -> session.persist(ticket));
            assertThat(tableExists(db, TABLE)).isTrue();
        } finally {
            dropAll(db);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void validateFailsOnAMissingTableAndAcceptsTheTableTheStoreCreates(TestDatabase db) {
        dropAll(db);
        db.execute("CREATE TABLE " + PREFIX + "async_ticket (id BIGINT NOT NULL PRIMARY KEY, worker INTEGER NOT NULL)");
        try {
            assertThatThrownBy(() -> sessionFactory(db, "validate").close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e).toLowerCase(Locale.ROOT))
                            .contains("missing table").contains(TABLE));

            JdbcSequenceStore.builder(db.dataSource()).table(TABLE).build().createTableIfMissing();
            try (SessionFactory sessionFactory = sessionFactory(db, "validate")) {
                AsyncTicket ticket = new AsyncTicket(1);
                HibernateTesting.inTransaction(sessionFactory, session -> session.persist(ticket));
                assertThat(ticket.id()).isEqualTo(1);
            }
        } finally {
            dropAll(db);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void generatedSchemaScriptsCreateAndDropTheTable(TestDatabase db, @TempDir Path scripts) throws IOException {
        Path create = scripts.resolve("create.sql");
        Path drop = scripts.resolve("drop.sql");
        Map<String, Object> settings = new HashMap<>();
        settings.put(AvailableSettings.HBM2DDL_AUTO, "none");
        settings.put(SeqgenHibernate.SCHEMA_EXPORT, "true");
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_ACTION, "drop-and-create");
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_CREATE_TARGET, create.toString());
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_DROP_TARGET, drop.toString());
        HibernateTesting.sessionFactory(db.dataSource(), PREFIX, TABLE, settings, AsyncTicket.class).close();

        String created = Files.readString(create).toLowerCase(Locale.ROOT);
        assertThat(created).containsPattern("create table (if not exists )?" + TABLE + " \\(")
                .containsPattern("name varchar\\(64\\) not null")
                .containsPattern("next_value bigint not null")
                .containsPattern("primary key \\(name\\)");
        assertThat(created).containsPattern("create table (if not exists )?" + KEPT_TABLE + " \\(")
                .containsPattern("range_start bigint not null")
                .containsPattern("range_end bigint not null")
                // Hibernate orders a key's columns its own way (ColumnOrderingStrategy); either order keys a range.
                .containsPattern("primary key \\((name, ?range_start|range_start, ?name)\\)");
        assertThat(Files.readString(drop).toLowerCase(Locale.ROOT)).containsPattern("drop table .*" + TABLE)
                .containsPattern("drop table .*" + KEPT_TABLE);
    }

    private static SessionFactory sessionFactory(TestDatabase db, String hbm2ddl) {
        return HibernateTesting.sessionFactory(db.dataSource(), PREFIX, TABLE, settings(hbm2ddl), AsyncTicket.class);
    }

    private static Map<String, Object> settings(String hbm2ddl) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(AvailableSettings.HBM2DDL_AUTO, hbm2ddl);
        settings.put(SeqgenHibernate.SCHEMA_CREATE, "false");
        settings.put(SeqgenHibernate.SCHEMA_EXPORT, "true");
        return settings;
    }

    private static void dropAll(TestDatabase db) {
        db.dropTable(PREFIX + "async_ticket");
        db.dropTable(TABLE);
        db.dropTable(KEPT_TABLE);
    }

    private static boolean tableExists(TestDatabase db, String table) {
        try (Connection connection = db.dataSource().getConnection()) {
            DatabaseMetaData metaData = connection.getMetaData();
            for (String name : new String[] {table, table.toUpperCase(Locale.ROOT)}) {
                try (ResultSet tables = metaData.getTables(connection.getCatalog(), null, name, null)) {
                    if (tables.next()) {
                        return true;
                    }
                }
            }
            return false;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
