package dev.seqgen.hibernate;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.SequenceStore;
import org.hibernate.boot.model.relational.Database;
import org.hibernate.boot.model.relational.SimpleAuxiliaryDatabaseObject;
import org.hibernate.dialect.Dialect;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * seqgen's tables in Hibernate's schema, the sequence table and its table of ranges kept for the fleet: registered by
 * the generators while Hibernate reads the mappings, as an auxiliary database object whose statements are the JDBC
 * store's own ({@link JdbcDialect#createTablesSql}), so that {@code hibernate.hbm2ddl.auto=create|create-drop|update}
 * and generated schema scripts create them exactly as the store does. Hibernate never drops them (its {@code update}
 * drops and re-creates auxiliary objects, which would lose the rows) and {@code validate} does not check them. No
 * I/O. The failure when the table cannot be read at start-up ({@link #unreadable}) is made here too, since it names
 * the ways the table comes to exist, Hibernate's schema among them.
 */
final class SeqgenTable {

    private static final System.Logger LOG = System.getLogger(SeqgenTable.class.getName());

    private SeqgenTable() {
    }

    /**
     * The table of the sequence rows that belongs in Hibernate's schema, or null: none when the rows are not in a
     * JDBC store's table, seqgen does not create its tables ({@link SeqgenHibernate#SCHEMA_INITIALIZE} is
     * {@code never}), or Hibernate's dialect is a Cloud Spanner one (Hibernate's Spanner dialects run their schema
     * tools in ways seqgen does not test: there seqgen's store creates its tables, or migrations do; it says so
     * once). No I/O.
     *
     * @param source where the registry comes from: the given registry's table store, or seqgen's plain settings,
     *     name the table; and the setting {@link SeqgenHibernate#SCHEMA_INITIALIZE}
     * @param dialect the dialect Hibernate builds the schema for
     * @param noted whether the Spanner rule was logged; set when it is
     */
    static @Nullable String exported(RegistrySource source, @Nullable Dialect dialect, AtomicBoolean noted) {
        SequenceRegistry given = source.givenRegistry();
        String table = given != null ? given.store(CounterKind.TABLE).flatMap(SequenceStore::sqlTable)
                .map(SequenceStore.SqlTable::name).orElse(null) : source.plainSettings().table;
        if (table == null || !GeneratorSettings.initializes(source.setting(SeqgenHibernate.SCHEMA_INITIALIZE))) {
            return null;
        }
        if (dialect != null && RegistrySource.isSpanner(dialect)) {
            if (noted.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.INFO, "seqgen: table " + table + " is left out of Hibernate's schema"
                        + " on Cloud Spanner: seqgen's store creates it (seqgen.schema.initialize=always), or your"
                        + " migrations do");
            }
            return null;
        }
        return table;
    }

    /**
     * The failure to report when a row could not be created and the store's table cannot be read (a missing table,
     * most often), or null when the table can be read (the creation's own error says it all). It names what can be
     * acted on: the table and every generator whose sequence it holds, what the database said, and the ways the
     * table comes to exist in this set-up. The reading's error is added to the creation's as suppressed, so both
     * reach the log; the creation's is the cause.
     *
     * @param store the store whose row could not be created
     * @param sequence the sequence whose row it was, read again to try the table
     * @param creation the creation's error
     * @param users where each generator whose sequence the store serves is ({@code Registration.where()})
     * @param source the registry's origin and settings, which tell how the table can be created
     */
    static @Nullable SeqgenMappingException unreadable(SequenceStore store, String sequence,
            RuntimeException creation, List<String> users, RegistrySource source) {
        SequenceStore.SqlTable table = store.sqlTable().orElse(null);
        if (table == null) {
            return null;
        }
        try {
            store.nextValue(sequence);
            return null;
        } catch (RuntimeException unreadable) {
            creation.addSuppressed(unreadable);
            return new SeqgenMappingException("seqgen's sequence table " + table.name() + ", used by "
                    + String.join("; ", users), "the table could not be read in the " + store.name() + " database: "
                    + databaseError(unreadable), "If the table does not exist, create it: " + ways(table, source),
                    creation);
        }
    }

    /** What the database said, without the store's account of the statement (which names the row it read). */
    static String databaseError(RuntimeException unreadable) {
        for (Throwable cause = unreadable; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql.getMessage() + " [SQLSTATE " + sql.getSQLState() + "]";
            }
        }
        return String.valueOf(unreadable.getMessage());
    }

    /**
     * The ways the table comes to exist in this set-up: seqgen's own registry creates it unless told not to;
     * Hibernate creates it with its schema, where the table is part of it; and migrations run the store's DDL.
     */
    private static String ways(SequenceStore.SqlTable table, RegistrySource source) {
        List<String> ways = new ArrayList<>();
        boolean springBoot = bool(source.setting(SeqgenHibernate.REGISTRY_REQUIRED), false);
        boolean initializes = GeneratorSettings.initializes(source.setting(SeqgenHibernate.SCHEMA_INITIALIZE));
        if (!initializes) {
            ways.add("let seqgen create it (" + SeqgenHibernate.SCHEMA_INITIALIZE + "=always"
                    + (springBoot ? ")" : ", the default; it is never here)"));
        }
        boolean spanner = table.platform().startsWith("spanner");
        if (!spanner && initializes) { // on Spanner Hibernate does not create it: see exported()
            ways.add("let Hibernate create it with the schema it is part of (" + (springBoot
                    ? "spring.jpa.hibernate.ddl-auto" : "hibernate.hbm2ddl.auto") + "=create or update)");
        }
        ways.add("run " + ddl(table) + " in your Flyway or Liquibase migrations");
        return String.join("; or ", ways);
    }

    /** The statements that create the tables ({@link JdbcDialect#createTablesSql}), as messages quote them. */
    static String ddl(SequenceStore.SqlTable table) {
        JdbcDialect dialect = JdbcDialect.ofPlatform(table.platform());
        return dialect == null ? "seqgen's DDL" : String.join("; ", dialect.createTablesSql(table.name()));
    }

    private static boolean bool(@Nullable Object setting, boolean absent) {
        return setting == null ? absent : Boolean.parseBoolean(setting.toString().trim());
    }

    /**
     * Adds the tables to the database's schema, once however many generators ask: nothing when seqgen has no DDL
     * for Hibernate's dialect (its store serves no such database either).
     *
     * @param database Hibernate's relational model being built
     * @param tableName the table, optionally qualified by schema (and catalog), as seqgen's settings give it
     */
    static void register(Database database, String tableName) {
        // Checked before Hibernate's schema tools could run a statement built from it.
        Identifiers.requireTableName(SeqgenHibernate.TABLE, tableName);
        JdbcDialect dialect = JdbcDialect.ofPlatform(RegistrySource.platform(database.getDialect()));
        if (dialect != null && database.getAuxiliaryDatabaseObjects().stream()
                .noneMatch(object -> object instanceof Tables tables && tables.table.equals(tableName))) {
            database.addAuxiliaryDatabaseObject(new Tables(tableName, dialect.createTablesSql(tableName)));
        }
    }

    /** seqgen's tables as an auxiliary database object: the store's statements to create them, none to drop them. */
    private static final class Tables extends SimpleAuxiliaryDatabaseObject {

        private final String table;

        Tables(String table, List<String> ddl) {
            super(Set.of(), null, null, ddl.toArray(String[]::new), new String[0]);
            this.table = table;
        }
    }
}
