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
 * seqgen's tables in Hibernate's schema, as an auxiliary object with the store's statements; never dropped
 * (Hibernate's {@code update} re-creates auxiliary objects, which would lose the rows).
 */
final class SeqgenTable {

    private static final System.Logger LOG = System.getLogger(SeqgenTable.class.getName());

    private SeqgenTable() {
    }

    /** Adds the tables to Hibernate's schema once, unless no JDBC table, {@code never}, Spanner or no DDL. */
    static void export(RegistrySource source, Database database, AtomicBoolean noted) {
        SequenceRegistry given = source.givenRegistry();
        String table = given != null ? given.store(CounterKind.TABLE).flatMap(SequenceStore::sqlTable)
                .map(SequenceStore.SqlTable::name).orElse(null) : source.plainSettings().table;
        if (table == null || !source.initializesSchema()) {
            return;
        }
        Dialect dialect = database.getDialect();
        if (dialect != null && RegistrySource.isSpanner(dialect)) {
            if (noted.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.INFO, "seqgen: table " + table + " is left out of Hibernate's schema"
                        + " on Cloud Spanner: seqgen's store creates it (seqgen.schema.initialize=always), or your"
                        + " migrations do");
            }
            return;
        }
        Identifiers.requireTableName(SeqgenHibernate.TABLE, table);
        JdbcDialect statements = JdbcDialect.ofPlatform(RegistrySource.platform(dialect));
        if (statements != null && database.getAuxiliaryDatabaseObjects().stream()
                .noneMatch(object -> object instanceof Tables tables && tables.table.equals(table))) {
            database.addAuxiliaryDatabaseObject(new Tables(table, statements.createTablesSql(table)));
        }
    }

    /** The failure naming the table, its users and how to create it, if it cannot be read; else null. */
    static @Nullable SeqgenMappingException unreadable(SequenceStore store, String sequence,
            RuntimeException creation, List<String> users, RegistrySource source) {
        SequenceStore.SqlTable table = store.sqlTable().orElse(null);
        RuntimeException unreadable = table == null ? null : readFailure(store, sequence);
        if (unreadable == null) {
            return null;
        }
        creation.addSuppressed(unreadable);
        return new SeqgenMappingException("seqgen's sequence table " + table.name() + ", used by "
                + String.join("; ", users), "the table could not be read in the " + store.name() + " database: "
                + databaseError(unreadable), "If the table does not exist, create it: " + ways(table, source),
                creation);
    }

    /** Why the store's table cannot be read (the row need not exist), or null when it reads. */
    static @Nullable RuntimeException readFailure(SequenceStore store, String row) {
        try {
            store.nextValue(row);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** What the database said, without the store's account of the statement. */
    static String databaseError(RuntimeException unreadable) {
        for (Throwable cause = unreadable; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql.getMessage() + " [SQLSTATE " + sql.getSQLState() + "]";
            }
        }
        return String.valueOf(unreadable.getMessage());
    }

    private static String ways(SequenceStore.SqlTable table, RegistrySource source) {
        List<String> ways = new ArrayList<>();
        boolean springBoot = source.registryRequired();
        if (!source.initializesSchema()) {
            ways.add("let seqgen create it (" + SeqgenHibernate.SCHEMA_INITIALIZE + "=always"
                    + (springBoot ? ")" : ", the default; it is never here)"));
        } else if (!table.platform().startsWith("spanner")) { // on Spanner Hibernate does not create it: exported()
            ways.add("let Hibernate create it with the schema it is part of (" + (springBoot
                    ? "spring.jpa.hibernate.ddl-auto" : "hibernate.hbm2ddl.auto") + "=create or update)");
        }
        ways.add("run " + ddl(table) + " in your Flyway or Liquibase migrations");
        return String.join("; or ", ways);
    }

    /** The statements that create the tables, as messages quote them. */
    static String ddl(SequenceStore.SqlTable table) {
        JdbcDialect dialect = JdbcDialect.ofPlatform(table.platform());
        return dialect == null ? "seqgen's DDL" : String.join("; ", dialect.createTablesSql(table.name()));
    }

    private static final class Tables extends SimpleAuxiliaryDatabaseObject {

        private final String table;

        Tables(String table, List<String> ddl) {
            super(Set.of(), null, null, ddl.toArray(String[]::new), new String[0]);
            this.table = table;
        }
    }
}
