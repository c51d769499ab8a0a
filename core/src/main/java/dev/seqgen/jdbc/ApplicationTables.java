package dev.seqgen.jdbc;

import dev.seqgen.KeyOrder;
import dev.seqgen.KeyRange;
import dev.seqgen.SequenceSettings;
import dev.seqgen.spi.SequenceStore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * seqgen's reads of the application's own tables, read only and rolled back: whether a column refuses assigned values
 * ({@link #refusals}), and the highest counter a column holds ({@link SequenceStore#highestCounter}).
 */
public final class ApplicationTables {

    private static final System.Logger LOG = System.getLogger(ApplicationTables.class.getName());

    private static final int FETCH_SIZE = 10_000;

    private ApplicationTables() {
    }

    /** A column seqgen assigns values to, named (possibly quoted and schema-qualified) as the mapping names it. */
    public record Column(String table, String column) {
    }

    /** Why a column of a database product refuses assigned values, and the change that makes it take them. */
    public record Refusal(String database, String reason, String fix) {
    }

    /**
     * {@return the columns that refuse assigned values, in the order given, with their refusals} Reads on one
     * connection, rolled back and left open; a column that cannot be read is skipped with a debug line.
     */
    public static Map<Column, Refusal> refusals(Connection connection, Collection<Column> columns) {
        Map<Column, Refusal> refusals = new LinkedHashMap<>();
        try {
            for (Column column : columns) {
                try {
                    refusal(connection, column.table(), column.column())
                            .ifPresent(refusal -> refusals.put(column, refusal));
                } catch (SQLException e) {
                    LOG.log(System.Logger.Level.DEBUG, "seqgen: could not read column " + column.column()
                            + " of table " + column.table() + ": " + e.getMessage());
                }
            }
        } finally {
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            } catch (SQLException ignored) {
                // only reads were made
            }
        }
        return refusals;
    }

    /**
     * {@return why the column refuses assigned values; empty if it takes them, or for an unknown database or column}
     *
     * @throws SQLException if the information schema cannot be read
     */
    public static Optional<Refusal> refusal(Connection connection, String table, String column) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        JdbcDialect dialect;
        try {
            dialect = JdbcDialect.forProductName(product);
        } catch (IllegalArgumentException unsupported) {
            return Optional.empty();
        }
        String[] parts = unquote(table).split("\\.");
        String name = parts[parts.length - 1];
        String schema = parts.length > 1 ? parts[parts.length - 2] : null;
        String columnName = unquote(column);
        return switch (dialect) {
            case POSTGRESQL, H2, HSQLDB -> standard(connection, dialect, product, table, column, schema, name,
                    columnName);
            case MARIADB -> mariadb(connection, product, schema, name, columnName);
            default -> Optional.empty();
        };
    }

    private static Optional<Refusal> standard(Connection connection, JdbcDialect dialect, String product,
            String table, String column, @Nullable String schema, String name, String columnName) throws SQLException {
        String currentSchema = dialect == JdbcDialect.HSQLDB ? "CURRENT_SCHEMA" : "current_schema()";
        String sql = "SELECT identity_generation, is_generated FROM information_schema.columns WHERE "
                + (schema != null ? "upper(table_schema) = upper(?)" : "table_schema = " + currentSchema)
                + " AND upper(table_name) = upper(?) AND upper(column_name) = upper(?)";
        try (PreparedStatement select = columnQuery(connection, sql, schema, name, columnName);
                ResultSet rs = select.executeQuery()) {
            if (!rs.next()) {
                return Optional.empty();
            }
            String identity = rs.getString(1);
            String generated = rs.getString(2);
            if (identity != null && identity.trim().toUpperCase(Locale.ROOT).equals("ALWAYS")) {
                return Optional.of(new Refusal(product, "an identity column declared GENERATED ALWAYS AS IDENTITY,"
                        + " which refuses assigned values", "ALTER TABLE " + table + " ALTER COLUMN " + column
                        + (dialect == JdbcDialect.HSQLDB ? " DROP GENERATED" : " SET GENERATED BY DEFAULT")
                        + " (then it takes assigned values and still generates them for inserts that give none)"));
            }
            if (generated != null && generated.trim().toUpperCase(Locale.ROOT).equals("ALWAYS")) {
                return Optional.of(computed(product));
            }
            return Optional.empty();
        }
    }

    private static Optional<Refusal> mariadb(Connection connection, String product, @Nullable String schema,
            String name, String columnName) throws SQLException {
        try (PreparedStatement select = columnQuery(connection, "SELECT extra FROM information_schema.columns"
                + " WHERE table_schema = " + (schema != null ? "?" : "DATABASE()") + " AND table_name = ?"
                + " AND column_name = ?", schema, name, columnName); ResultSet rs = select.executeQuery()) {
            // AUTO_INCREMENT takes assigned values; VIRTUAL GENERATED and STORED GENERATED columns do not.
            return rs.next() && rs.getString(1) != null
                    && rs.getString(1).toUpperCase(Locale.ROOT).contains("GENERATED")
                    ? Optional.of(computed(product)) : Optional.empty();
        }
    }

    private static PreparedStatement columnQuery(Connection connection, String sql, @Nullable String schema,
            String name, String columnName) throws SQLException {
        PreparedStatement select = connection.prepareStatement(sql);
        return schema == null ? JdbcDialect.bind(select, name, columnName)
                : JdbcDialect.bind(select, schema, name, columnName);
    }

    private static Refusal computed(String product) {
        return new Refusal(product, "a generated (computed) column, whose value the database computes",
                "map the id or number to a column that is not computed");
    }

    private static String unquote(String identifier) {
        return identifier.replace("\"", "").replace("`", "");
    }

    /** The highest counter a column holds, 0 if none, rolled back afterwards. */
    static long highestCounter(Connection connection, String table, String column, SequenceSettings settings)
            throws SQLException {
        if (settings.keyOrder() == KeyOrder.SEQUENTIAL) {
            return highestInSeries(connection, table, column, List.of(), null);
        }
        KeyRange skip = settings.skipRange();
        return highest(connection, "select " + column + " from " + table + " where " + column + " > 0"
                + (skip.isEmpty() ? "" : " and (" + column + " < " + skip.min() + " or " + column + " > " + skip.max()
                        + ")"), List.of(), rs -> settings.keyOrder().counter(rs.getLong(1)));
    }

    @FunctionalInterface
    private interface Counter {
        long of(ResultSet rs) throws SQLException;
    }

    /**
     * {@return the highest value of a column, or counter of its formatted numbers ({@code counterOf} non-null), in the
     * rows of one series, 0 if none} Rolled back afterwards; the connection is not closed.
     *
     * @throws SQLException if the table cannot be read
     */
    public static long highestInSeries(Connection connection, String table, String column,
            List<SequenceStore.Where> where, @Nullable ToLongFunction<String> counterOf) throws SQLException {
        return counterOf == null
                ? highest(connection, "select max(" + column + ") from " + table, where, rs -> rs.getLong(1))
                : highest(connection, "select " + column + " from " + table, where,
                        rs -> counterOf.applyAsLong(rs.getString(1)));
    }

    /** The highest counter of the rows {@code select} reads under the conditions, 0 if none is positive. */
    private static long highest(Connection connection, String select, List<SequenceStore.Where> where,
            Counter counter) throws SQLException {
        StringBuilder sql = new StringBuilder(select);
        String and = " where ";
        for (SequenceStore.Where condition : where) {
            sql.append(and).append(condition.column()).append(condition.until() == null ? " = ?"
                    : " >= ? and " + condition.column() + " < ?");
            and = " and ";
        }
        try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            statement.setFetchSize(FETCH_SIZE);
            int index = 1;
            for (SequenceStore.Where condition : where) {
                statement.setObject(index++, condition.value());
                if (condition.until() != null) {
                    statement.setObject(index++, condition.until());
                }
            }
            long highest = 0;
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    highest = Math.max(highest, counter.of(rs));
                }
            }
            return highest;
        } finally {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        }
    }
}
