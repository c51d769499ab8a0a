package dev.seqgen.hibernate;

import dev.seqgen.jdbc.JdbcDialect;
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
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * seqgen's tables are part of Hibernate's schema with the store's own statements
 * ({@link JdbcDialect#createTablesSql}), as {@link SeqgenHibernate#SCHEMA_INITIALIZE} says: generated schema scripts
 * create them exactly as the store does and never drop them, and {@code hbm2ddl.auto=update} keeps their rows.
 */
class SchemaExportTest {

    private static final String PREFIX = HibernateTesting.prefix("hse_");

    private static final String TABLE = PREFIX + "seqgen";

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void generatedScriptsCreateTheTablesWithTheStoresStatementsAndNeverDropThem(TestDatabase db,
            @TempDir Path scripts) throws IOException {
        Path create = scripts.resolve("create.sql");
        Path drop = scripts.resolve("drop.sql");
        Map<String, Object> settings = new HashMap<>();
        settings.put(AvailableSettings.HBM2DDL_AUTO, "none");
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_ACTION, "drop-and-create");
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_CREATE_TARGET, create.toString());
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_DROP_TARGET, drop.toString());
        HibernateTesting.sessionFactory(db.dataSource(), PREFIX, TABLE, settings, AsyncTicket.class).close();

        assertThat(Files.readString(create)).as("the create script").contains(dialect(db).createTablesSql(TABLE));
        assertThat(Files.readString(drop)).as("the drop script").contains(PREFIX + "async_ticket")
                .doesNotContain(TABLE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void neverLeavesThemOutOfHibernatesSchema(TestDatabase db, @TempDir Path scripts) throws IOException {
        Path create = scripts.resolve("create.sql");
        Map<String, Object> settings = new HashMap<>();
        settings.put(AvailableSettings.HBM2DDL_AUTO, "none");
        settings.put(SeqgenHibernate.SCHEMA_INITIALIZE, "never");
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_ACTION, "create");
        settings.put(AvailableSettings.JAKARTA_HBM2DDL_SCRIPTS_CREATE_TARGET, create.toString());
        HibernateTesting.sessionFactory(db.dataSource(), PREFIX, TABLE, settings, AsyncTicket.class).close();

        assertThat(Files.readString(create)).contains(PREFIX + "async_ticket").doesNotContain(TABLE);
    }

    /** Hibernate's update drops and re-creates auxiliary objects: seqgen's tables have no drop, so the rows stay. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void updateKeepsTheRows(TestDatabase db) {
        dropAll(db);
        try {
            for (long expected = 1; expected <= 2; expected++) {
                try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, TABLE,
                        Map.of(AvailableSettings.HBM2DDL_AUTO, "update"), SyncTicket.class)) {
                    SyncTicket ticket = new SyncTicket(1);
                    HibernateTesting.inTransaction(sessionFactory, session -> session.persist(ticket));
                    assertThat(ticket.id()).as("the id of session factory " + expected).isEqualTo(expected);
                }
            }
        } finally {
            dropAll(db);
        }
    }

    private static JdbcDialect dialect(TestDatabase db) {
        try (Connection connection = db.dataSource().getConnection()) {
            return JdbcDialect.forProductName(connection.getMetaData().getDatabaseProductName());
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void dropAll(TestDatabase db) {
        db.dropTable(PREFIX + "sync_ticket");
        db.dropTable(TABLE);
        db.dropTable(TABLE + "_kept");
    }
}
