package dev.seqgen.hibernate;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.SequenceStore;
import org.hibernate.FetchMode;
import org.hibernate.boot.model.naming.Identifier;
import org.hibernate.boot.model.relational.Database;
import org.hibernate.boot.model.relational.Namespace;
import org.hibernate.boot.model.relational.QualifiedName;
import org.hibernate.boot.model.relational.QualifiedNameParser;
import org.hibernate.dialect.Dialect;
import org.hibernate.mapping.Column;
import org.hibernate.mapping.PrimaryKey;
import org.hibernate.mapping.Table;
import org.hibernate.mapping.Value;
import org.hibernate.type.BasicTypeReference;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.StandardBasicTypes;
import org.hibernate.type.Type;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * seqgen's tables as part of Hibernate's schema, the sequence table and its table of ranges kept for the fleet:
 * registered by the generators while Hibernate reads the mappings (as Hibernate's own table and sequence generators
 * register theirs), so that {@code hibernate.hbm2ddl.auto=create|create-drop|update|validate}, {@code drop} and
 * generated schema scripts include it. Its shape is the one the JDBC store creates
 * ({@code JdbcDialect.createTableSql}): {@code name} {@code VARCHAR(64)} primary key, {@code next_value BIGINT},
 * both not null; the types are the dialect's own for those JDBC types. No I/O. The failure when the table cannot be
 * read at start-up ({@link #unreadable}) is made here too, since it names the ways the table comes to exist,
 * Hibernate's schema among them.
 */
final class SeqgenTable {

    /** The contributor Hibernate records for the table (for schema tools that filter by contributor). */
    static final String CONTRIBUTOR = "seqgen";
    /** The longest sequence name the table holds, as in {@code JdbcDialect.createTableSql}. */
    static final long NAME_LENGTH = 64;

    private static final System.Logger LOG = System.getLogger(SeqgenTable.class.getName());

    private SeqgenTable() {
    }

    /**
     * The table of the sequence rows that belongs in Hibernate's schema ({@link SeqgenHibernate#SCHEMA_EXPORT}),
     * or null: none when the rows are not in a JDBC store's table, the export is off, or Hibernate's dialect is a
     * Cloud Spanner one. Hibernate's Spanner dialects write a table's primary key inside its column list, which
     * Spanner rejects, so with {@code ddl-auto=create} Hibernate would drop the table seqgen's own script created
     * and fail to make it again: on Spanner seqgen keeps its table out of Hibernate's schema, and says so once.
     * No I/O.
     *
     * @param source where the registry comes from: the given registry's table store, or seqgen's plain settings,
     *     name the table; and the setting {@link SeqgenHibernate#SCHEMA_EXPORT}
     * @param dialect the dialect Hibernate builds the schema for
     * @param noted whether the Spanner rule was logged; set when it is
     */
    static @Nullable String exported(RegistrySource source, @Nullable Dialect dialect, AtomicBoolean noted) {
        SequenceRegistry given = source.givenRegistry();
        String table = given != null ? given.store(CounterKind.TABLE).flatMap(SequenceStore::sqlTable)
                .map(SequenceStore.SqlTable::name).orElse(null) : source.plainSettings().table;
        Object export = source.setting(SeqgenHibernate.SCHEMA_EXPORT);
        if (table == null || export != null && !Boolean.parseBoolean(export.toString().trim())) {
            return null;
        }
        if (dialect != null && RegistrySource.isSpanner(dialect)) {
            if (noted.compareAndSet(false, true)) {
                LOG.log(System.Logger.Level.INFO, "seqgen: table " + table + " is left out of Hibernate's schema:"
                        + " Hibernate's " + dialect.getClass().getSimpleName() + " writes a primary key Cloud"
                        + " Spanner does not accept, so ddl-auto would drop the table and fail to create it again."
                        + " seqgen creates it (seqgen.jdbc.initialize-schema=always with Spring Boot, or the"
                        + " store's createTable), or your migrations do, from the script dev/seqgen/schema/spanner.sql"
                        + " of seqgen-spring-boot-starter");
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
     * Hibernate creates it with its schema, where the table is part of it; and the script, which the Spring Boot
     * starter (the framework that requires its registry) runs when told to, or migrations do.
     */
    private static String ways(SequenceStore.SqlTable table, RegistrySource source) {
        List<String> ways = new ArrayList<>();
        boolean springBoot = bool(source.setting(SeqgenHibernate.REGISTRY_REQUIRED), false);
        String script = "dev/seqgen/schema/" + table.platform() + ".sql";
        if (source.givenRegistry() == null && !source.plainSettings().createTable) {
            ways.add("let seqgen create it (" + SeqgenHibernate.SCHEMA_CREATE + "=true, the default; it is false"
                    + " here)");
        }
        String ddlAuto = springBoot ? "spring.jpa.hibernate.ddl-auto=create or update"
                : "hibernate.hbm2ddl.auto=create or update";
        boolean spanner = table.platform().startsWith("spanner");
        if (!spanner) { // Hibernate's Spanner dialects cannot create it: see exported()
            ways.add(bool(source.setting(SeqgenHibernate.SCHEMA_EXPORT), true)
                    ? "let Hibernate create it with the schema it is part of (" + ddlAuto + ")"
                    : "let Hibernate create it with its schema (" + ddlAuto + " with " + SeqgenHibernate.SCHEMA_EXPORT
                            + "=true, the default; it is false here)");
        }
        ways.add(springBoot ? "run the script " + script + " of seqgen-spring-boot-starter: seqgen runs it at"
                + " start-up with seqgen.jdbc.initialize-schema=always, or copy it into your Flyway or Liquibase"
                + " migrations" : "run the script " + script + " of seqgen-spring-boot-starter (in your Flyway or"
                + " Liquibase migrations)");
        return String.join("; or ", ways) + (spanner ? " (Hibernate's Spanner dialects cannot create it, so it is"
                + " not part of Hibernate's schema there)" : "");
    }

    private static boolean bool(@Nullable Object setting, boolean absent) {
        return setting == null ? absent : Boolean.parseBoolean(setting.toString().trim());
    }

    /**
     * Adds the table and its table of kept ranges to the database's schema, once however many generators ask.
     *
     * @param database Hibernate's relational model being built
     * @param tableName the table, optionally qualified by schema (and catalog), as seqgen's settings give it
     */
    static void register(Database database, String tableName) {
        Table table = create(database, tableName);
        if (table == null) {
            return;
        }
        Column nameColumn = column(database, table, "name", SqlTypes.VARCHAR, NAME_LENGTH, StandardBasicTypes.STRING);
        Column valueColumn = column(database, table, "next_value", SqlTypes.BIGINT, null, StandardBasicTypes.LONG);
        table.addColumn(nameColumn);
        table.addColumn(valueColumn);
        primaryKey(table, nameColumn);
        registerKept(database, Identifiers.keptTableName(tableName));
    }

    /**
     * Adds the table of ranges kept for the fleet (see {@code JdbcSequenceStore.keep}), as
     * {@code JdbcDialect.createKeptTableSql} creates it: {@code name VARCHAR(64)}, {@code range_start BIGINT},
     * {@code range_end BIGINT}, all not null, keyed by {@code (name, range_start)}. Hibernate's column ordering may
     * write the key as {@code (range_start, name)}: the same uniqueness, and the table holds a few rows per sequence.
     */
    private static void registerKept(Database database, String keptTableName) {
        Table table = create(database, keptTableName);
        if (table == null) {
            return;
        }
        Column nameColumn = column(database, table, "name", SqlTypes.VARCHAR, NAME_LENGTH, StandardBasicTypes.STRING);
        Column startColumn = column(database, table, "range_start", SqlTypes.BIGINT, null, StandardBasicTypes.LONG);
        Column endColumn = column(database, table, "range_end", SqlTypes.BIGINT, null, StandardBasicTypes.LONG);
        table.addColumn(nameColumn);
        table.addColumn(startColumn);
        table.addColumn(endColumn);
        primaryKey(table, nameColumn, startColumn);
    }

    /** Creates the table in its namespace, or returns null if another generator registered it already. */
    private static @Nullable Table create(Database database, String tableName) {
        QualifiedName name = QualifiedNameParser.INSTANCE.parse(tableName);
        Namespace namespace = database.locateNamespace(name.getCatalogName(), name.getSchemaName());
        Identifier tableIdentifier = name.getObjectName();
        if (namespace.locateTable(tableIdentifier) != null) {
            return null;
        }
        // The table keeps the name the store uses: the physical naming strategy, which Hibernate would apply to
        // the name it passes in, is for the application's tables, not for a library's.
        return namespace.createTable(tableIdentifier,
                physicalName -> new Table(CONTRIBUTOR, namespace, tableIdentifier, false));
    }

    private static void primaryKey(Table table, Column... columns) {
        PrimaryKey primaryKey = new PrimaryKey(table);
        for (Column column : columns) {
            primaryKey.addColumn(column);
        }
        table.setPrimaryKey(primaryKey);
    }

    private static Column column(Database database, Table table, String name, int typeCode, @Nullable Long length,
            BasicTypeReference<?> type) {
        Column column = new Column(name);
        column.setValue(ColumnValue.of(column, table,
                database.getTypeConfiguration().getBasicTypeRegistry().resolve(type)));
        column.setSqlTypeCode(typeCode);
        if (length != null) {
            column.setLength(length);
            column.setSqlType(database.getTypeConfiguration().getDdlTypeRegistry().getTypeName(typeCode, length,
                    null, null));
        } else {
            column.setSqlType(database.getTypeConfiguration().getDdlTypeRegistry().getTypeName(typeCode,
                    database.getDialect()));
        }
        column.setNullable(false);
        return column;
    }

    /**
     * The mapping value behind a column of seqgen's table. Hibernate's schema tools ask a column's value for
     * its type and a few flags; the interface has grown from Hibernate 7.1 to 7.4 (abstract methods added,
     * others made default), and Hibernate's own implementation for such generator-owned columns is internal
     * and version-specific. A dynamic proxy answers the questions a plain, not-null, insertable column answers,
     * lets default methods run as written, and answers anything else with the neutral value of its return
     * type, so it works with every Hibernate 7 seqgen supports.
     */
    private static final class ColumnValue implements InvocationHandler {

        private final Column column;
        private final Table table;
        private final Type type;

        private ColumnValue(Column column, Table table, Type type) {
            this.column = column;
            this.table = table;
            this.type = type;
        }

        static Value of(Column column, Table table, Type type) {
            return (Value) Proxy.newProxyInstance(SeqgenTable.class.getClassLoader(), new Class<?>[] {Value.class},
                    new ColumnValue(column, table, type));
        }

        @Override
        public @Nullable Object invoke(Object proxy, Method method, @Nullable Object @Nullable [] args)
                throws Throwable {
            switch (method.getName()) {
                case "getType":
                    return type;
                case "getTable":
                    return table;
                case "getColumns":
                case "getSelectables":
                case "getConstraintColumns":
                    return List.of(column);
                case "getColumn":
                    return column;
                case "getColumnSpan":
                    return 1;
                case "getColumnInsertability":
                case "getColumnUpdateability":
                    return new boolean[] {true};
                case "hasColumns":
                case "hasAnyInsertableColumns":
                case "hasAnyUpdatableColumns":
                case "isColumnInsertable":
                case "isColumnUpdateable":
                case "isSimpleValue":
                case "isValid":
                    return true;
                case "getFetchMode":
                    return FetchMode.SELECT;
                case "copy":
                    return proxy;
                case "isSame":
                    return proxy == args[0];
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "seqgen column " + table.getName() + "." + column.getName();
                default:
                    break;
            }
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            Class<?> returned = method.getReturnType();
            if (returned == boolean.class) {
                return false;
            }
            if (returned == int.class) {
                return 0;
            }
            if (returned == long.class) {
                return 0L;
            }
            return null;
        }
    }
}
