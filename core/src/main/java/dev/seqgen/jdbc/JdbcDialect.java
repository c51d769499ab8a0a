package dev.seqgen.jdbc;

import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.SequenceStoreException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The SQL of each supported database. Every reservation is one atomic statement that moves {@code next_value} forward
 * only if the whole block fits below the maximum, and gives the new {@code next_value} with no second read of the row.
 */
public enum JdbcDialect {

    /** PostgreSQL, and the databases that speak its SQL: CockroachDB, YugabyteDB, Aurora DSQL. */
    POSTGRESQL(Sql.UPDATE_RETURNING, Sql.ON_CONFLICT_DO_NOTHING, "SELECT nextval('%s')",
            e -> "2200H".equals(e.getSQLState())) {
        @Override
        String createSequenceSql(String quoted, long start, long increment, long maxValue) {
            return "CREATE SEQUENCE IF NOT EXISTS " + quoted + " AS BIGINT INCREMENT BY " + increment + " MINVALUE "
                    + start + " MAXVALUE " + maxValue + " START WITH " + start + " CACHE 1 NO CYCLE";
        }

        @Override
        @Nullable NativeSequenceState readSequence(Connection connection, String quoted) throws SQLException {
            try (Statement select = connection.createStatement();
                    ResultSet rs = select.executeQuery("SELECT p.seqincrement, p.seqmax, s.last_value, s.is_called"
                            + " FROM " + quoted + " s CROSS JOIN pg_sequence p WHERE p.seqrelid = '" + quoted
                            + "'::regclass")) {
                if (!rs.next()) {
                    return null;
                }
                long increment = rs.getLong(1);
                long last = rs.getLong(3);
                long next = !rs.getBoolean(4) ? last
                        : last > Long.MAX_VALUE - increment ? Long.MAX_VALUE : last + increment;
                return new NativeSequenceState(increment, rs.getLong(2), next);
            } catch (SQLException e) {
                if ("42P01".equals(e.getSQLState())) {
                    return null;
                }
                throw e;
            }
        }

        /** Under the sequence's ACCESS EXCLUSIVE lock: docs/design.md#native-sequence-advance. */
        @Override
        boolean advanceSequence(Connection connection, String quoted, long nextValue) throws SQLException {
            try (Statement statement = connection.createStatement()) {
                String owner;
                try (ResultSet rs = statement.executeQuery("SELECT pg_get_userbyid(relowner) FROM pg_class"
                        + " WHERE oid = '" + quoted + "'::regclass")) {
                    if (!rs.next()) {
                        return false;
                    }
                    owner = rs.getString(1);
                }
                statement.execute("ALTER SEQUENCE " + quoted + " OWNER TO \"" + owner.replace("\"", "\"\"") + '"');
                NativeSequenceState state = readSequence(connection, quoted);
                if (state == null || state.nextValue() >= nextValue) {
                    return false;
                }
                statement.execute("SELECT setval('" + quoted + "', " + nextValue + ", false)");
                return true;
            }
        }
    },

    /**
     * MariaDB and MySQL: no {@code RETURNING}, so the increment sets {@code LAST_INSERT_ID(expr)}, returned as the
     * update's generated key (see docs/design.md#jdbc-increment).
     */
    MARIADB("UPDATE %s SET next_value = LAST_INSERT_ID(next_value + ?) WHERE name = ? AND next_value <= ?",
            "INSERT IGNORE INTO %s (name, next_value) VALUES (?, ?)", "SELECT NEXTVAL(%s)",
            e -> e.getErrorCode() == 4084) {
        @Override
        long increment(Connection connection, String table, String name, long count, long lastStart)
                throws SQLException {
            try (PreparedStatement update = bind(connection.prepareStatement(incrementSql.formatted(table),
                    Statement.RETURN_GENERATED_KEYS), count, name, lastStart)) {
                if (update.executeUpdate() == 0) {
                    return NO_ROW;
                }
                try (ResultSet keys = update.getGeneratedKeys()) {
                    if (keys.next() && keys.getLong(1) > 0) {
                        return keys.getLong(1);
                    }
                }
            }
            try (Statement select = connection.createStatement();
                    ResultSet rs = select.executeQuery("SELECT LAST_INSERT_ID()")) {
                rs.next();
                return rs.getLong(1);
            }
        }

        @Override
        String quote(String name) {
            return "`" + name + "`";
        }

        /** A MariaDB BIGINT sequence stops one below {@link Long#MAX_VALUE}. */
        @Override
        String createSequenceSql(String quoted, long start, long increment, long maxValue) {
            return "CREATE SEQUENCE IF NOT EXISTS " + quoted + " START WITH " + start + " MINVALUE " + start
                    + " MAXVALUE " + Math.min(maxValue, Long.MAX_VALUE - 1) + " INCREMENT BY " + increment
                    + " CACHE 1 NOCYCLE";
        }

        @Override
        @Nullable NativeSequenceState readSequence(Connection connection, String quoted) throws SQLException {
            // A MariaDB sequence is a table of one row; with CACHE 1 its next_not_cached_value is the next value.
            try (Statement select = connection.createStatement();
                    ResultSet rs = select.executeQuery("SELECT increment, maximum_value, next_not_cached_value FROM "
                            + quoted)) {
                return rs.next() ? new NativeSequenceState(rs.getLong(1), rs.getLong(2), rs.getLong(3)) : null;
            } catch (SQLException e) {
                if ("42S02".equals(e.getSQLState()) || e.getErrorCode() == 1146) {
                    return null;
                }
                throw e;
            }
        }

        /** {@code SETVAL} never moves below the current value: the read only spares a statement. */
        @Override
        boolean advanceSequence(Connection connection, String quoted, long nextValue) throws SQLException {
            NativeSequenceState state = readSequence(connection, quoted);
            if (state == null || state.nextValue() >= nextValue) {
                return false;
            }
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("SELECT SETVAL(" + quoted + ", " + nextValue + ", 0)")) {
                rs.next();
                rs.getLong(1);
                return !rs.wasNull();
            }
        }
    },

    /**
     * Cloud Spanner through its JDBC driver, GoogleSQL databases: {@code THEN RETURN}, Spanner's DDL (the driver turns
     * {@code ?} into {@code @p1...}). Own reservations run on another connection: no transaction is nested.
     */
    SPANNER(Sql.GUARDED_UPDATE + " THEN RETURN next_value",
            "INSERT OR IGNORE INTO %s (name, next_value) VALUES (?, ?)", null, e -> false) {
        @Override
        String createTableSql(String table) {
            return "CREATE TABLE IF NOT EXISTS " + table
                    + " (name STRING(64) NOT NULL, next_value INT64 NOT NULL) PRIMARY KEY (name)";
        }

        @Override
        String createKeptTableSql(String keptTable) {
            return "CREATE TABLE IF NOT EXISTS " + keptTable + " (name STRING(64) NOT NULL, range_start INT64 NOT NULL,"
                    + " range_end INT64 NOT NULL) PRIMARY KEY (name, range_start)";
        }
    },

    /** Cloud Spanner through its JDBC driver, PostgreSQL-dialect databases: {@code RETURNING}, PostgreSQL DDL. */
    SPANNER_POSTGRESQL(Sql.UPDATE_RETURNING, Sql.ON_CONFLICT_DO_NOTHING, null, e -> false),

    /**
     * HSQLDB (HyperSQL): no {@code RETURNING}, so the guarded {@code UPDATE} and a read of the row in the same
     * transaction, whose lock makes the pair atomic (docs/design.md#jdbc-increment).
     */
    HSQLDB(Sql.GUARDED_UPDATE, Sql.MERGE_IF_MISSING, "CALL NEXT VALUE FOR %s", e -> "2200H".equals(e.getSQLState())) {
        @Override
        long increment(Connection connection, String table, String name, long count, long lastStart)
                throws SQLException {
            try (PreparedStatement update = bind(connection.prepareStatement(incrementSql.formatted(table)), count,
                    name, lastStart)) {
                if (update.executeUpdate() == 0) {
                    return NO_ROW;
                }
            }
            return readNextValue(connection, table, name, false).orElseThrow();
        }

        @Override
        String createSequenceSql(String quoted, long start, long increment, long maxValue) {
            // HSQLDB's sequences have no cache: every NEXT VALUE FOR is the sequence's own.
            return "CREATE SEQUENCE IF NOT EXISTS " + quoted + " AS BIGINT START WITH " + start + " INCREMENT BY "
                    + increment + " MINVALUE " + Math.min(start, 1) + " MAXVALUE " + maxValue + " NO CYCLE";
        }

        /** {@code SYSTEM_SEQUENCES}: the standard {@code SEQUENCES} is a view cached per session. */
        @Override
        @Nullable NativeSequenceState readSequence(Connection connection, String quoted) throws SQLException {
            return state(sequenceRow(connection, quoted, "CAST(INCREMENT AS BIGINT), CAST(MAXIMUM_VALUE AS BIGINT),"
                    + " CAST(NEXT_VALUE AS BIGINT)", "SYSTEM_SEQUENCES"));
        }

        /** An exhausted sequence shows its start value again: see docs/design.md#native-sequence-advance. */
        @Override
        boolean advanceSequence(Connection connection, String quoted, long nextValue) throws SQLException {
            long[] nextAndStart = sequenceRow(connection, quoted, "CAST(NEXT_VALUE AS BIGINT),"
                    + " CAST(START_WITH AS BIGINT)", "SYSTEM_SEQUENCES");
            if (nextAndStart != null && nextAndStart[0] < nextValue && nextAndStart[0] == nextAndStart[1]
                    && !takesValueBelow(connection, quoted, nextValue)) {
                return false;
            }
            return super.advanceSequence(connection, quoted, nextValue);
        }

        /** Takes one value: whether the sequence gave one below {@code nextValue} (false if it is exhausted). */
        private boolean takesValueBelow(Connection connection, String quoted, long nextValue) throws SQLException {
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery(nextvalSql(quoted))) {
                rs.next();
                return rs.getLong(1) < nextValue;
            } catch (SQLException e) {
                if (isSequenceExhausted(e)) {
                    return false;
                }
                throw e;
            }
        }
    },

    /** H2, whose data-change delta table returns the updated row from the update itself. */
    H2("SELECT next_value FROM FINAL TABLE (" + Sql.GUARDED_UPDATE + ")", Sql.MERGE_IF_MISSING,
            "SELECT NEXT VALUE FOR %s", e -> e.getErrorCode() == 90006) {
        @Override
        String createSequenceSql(String quoted, long start, long increment, long maxValue) {
            // H2 wants the increment smaller than MAXVALUE - MINVALUE: the minimum goes below the start where needed.
            return "CREATE SEQUENCE IF NOT EXISTS " + quoted + " AS BIGINT START WITH " + start + " INCREMENT BY "
                    + increment + " MINVALUE " + Math.min(start, maxValue - increment - 1) + " MAXVALUE " + maxValue
                    + " NO CYCLE CACHE 1";
        }

        @Override
        @Nullable NativeSequenceState readSequence(Connection connection, String quoted) throws SQLException {
            return state(sequenceRow(connection, quoted, "INCREMENT, MAXIMUM_VALUE, BASE_VALUE", "SEQUENCES"));
        }
    };

    /** The databases seqgen's JDBC stores serve, as error messages list them. */
    static final String SUPPORTED = "PostgreSQL (and CockroachDB, YugabyteDB, Aurora DSQL), MariaDB/MySQL, H2,"
            + " HSQLDB, Cloud Spanner (GoogleSQL and PostgreSQL dialects, through the Spanner JDBC driver)";

    /** What {@link #increment} returns when no row matched: missing, or the block does not fit. */
    static final long NO_ROW = Long.MIN_VALUE;

    /** Statements shared by dialects (in a holder: enum constants cannot read the enum's own), {@code %s} the table. */
    static final class Sql {
        static final String GUARDED_UPDATE =
                "UPDATE %s SET next_value = next_value + ? WHERE name = ? AND next_value <= ?";
        static final String UPDATE_RETURNING = GUARDED_UPDATE + " RETURNING next_value";
        static final String ON_CONFLICT_DO_NOTHING =
                "INSERT INTO %s (name, next_value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING";
        static final String MERGE_IF_MISSING = "MERGE INTO %s t USING (VALUES (CAST(? AS VARCHAR(64)), CAST(? AS"
                + " BIGINT))) s(name, v) ON t.name = s.name WHEN NOT MATCHED THEN INSERT (name, next_value)"
                + " VALUES (s.name, s.v)";
        static final String GIVE_BACK = "UPDATE %s SET next_value = ? WHERE name = ? AND next_value = ?";
        /** Writes nothing and locks nothing (a false condition), but is refused where the table cannot be written. */
        static final String TOUCH_NOTHING = "UPDATE %s SET next_value = next_value WHERE name = ? AND 1 = 0";
        static final String KEEP = "INSERT INTO %s (name, range_start, range_end) VALUES (?, ?, ?)";
        static final String KEPT_RANGES =
                "SELECT range_start, range_end FROM %s WHERE name = ? AND range_start >= ? ORDER BY range_start";
        /** Deletes one kept range exactly as read: the delete that changes a row is the one claim of the range. */
        static final String TAKE_KEPT = "DELETE FROM %s WHERE name = ? AND range_start = ? AND range_end = ?";
    }

    /** Templates, {@code %s} the table or the quoted sequence; not private, as the constants' bodies read it. */
    final String incrementSql;
    private final String insertIfMissingSql;
    /** Null if the database has no native sequences that serve contiguous blocks. */
    private final @Nullable String nextvalSql;
    private final Predicate<SQLException> sequenceExhausted;

    JdbcDialect(String incrementSql, String insertIfMissingSql, @Nullable String nextvalSql,
            Predicate<SQLException> sequenceExhausted) {
        this.incrementSql = incrementSql;
        this.insertIfMissingSql = insertIfMissingSql;
        this.nextvalSql = nextvalSql;
        this.sequenceExhausted = sequenceExhausted;
    }

    /** {@return the lowercase database name used in metrics tags and messages} */
    public String storeName() {
        return isSpanner() ? "spanner" : platform();
    }

    /**
     * {@return the database as the SPI names it ({@code SequenceStore.SqlTable#platform()}): the store name, but
     * {@code spanner-postgresql} for PostgreSQL-dialect Spanner}
     */
    public String platform() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** {@return the dialect of a platform ({@link #platform()}), or null if seqgen has none} */
    public static @Nullable JdbcDialect ofPlatform(String platform) {
        return Arrays.stream(values()).filter(dialect -> dialect.platform().equals(platform)).findFirst().orElse(null);
    }

    /**
     * {@return seqgen's only DDL for this database: {@code CREATE TABLE IF NOT EXISTS} of the sequence table
     * (optionally schema-qualified), then of its kept ranges ({@code <table>_kept})}
     */
    public List<String> createTablesSql(String table) {
        return List.of(createTableSql(table), createKeptTableSql(Identifiers.keptTableName(table)));
    }

    /**
     * Adds {@code count} to the row's {@code next_value} if it is at most {@code lastStart}, in one atomic
     * statement, and returns the new {@code next_value}, or {@link #NO_ROW} if no row was changed.
     */
    long increment(Connection connection, String table, String name, long count, long lastStart)
            throws SQLException {
        try (PreparedStatement statement = bind(connection.prepareStatement(incrementSql.formatted(table)), count, name,
                lastStart); ResultSet rs = statement.executeQuery()) {
            return rs.next() ? rs.getLong(1) : NO_ROW;
        }
    }

    /** Binds the parameters, strings or longs, in order; {@return the statement} Closes it if binding fails. */
    static PreparedStatement bind(PreparedStatement statement, Object... parameters) throws SQLException {
        try {
            for (int i = 0; i < parameters.length; i++) {
                if (parameters[i] instanceof String text) {
                    statement.setString(i + 1, text);
                } else {
                    statement.setLong(i + 1, (Long) parameters[i]);
                }
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    /**
     * Reads the row's {@code next_value}; {@code forUpdate}: a locking read, the latest committed value whatever the
     * transaction's snapshot, and the row lock (as any read in a Spanner read-write transaction).
     */
    OptionalLong readNextValue(Connection connection, String table, String name, boolean forUpdate)
            throws SQLException {
        try (PreparedStatement select = bind(connection.prepareStatement("SELECT next_value FROM " + table
                + " WHERE name = ?" + (forUpdate && !isSpanner() ? " FOR UPDATE" : "")), name);
                ResultSet rs = select.executeQuery()) {
            return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
        }
    }

    /** Inserts {@code (name, next_value)}; does nothing when the row exists. */
    String insertIfMissingSql(String table) {
        return insertIfMissingSql.formatted(table);
    }

    /** On MariaDB InnoDB whatever the server's default engine: a reservation is a transaction. */
    String createTableSql(String table) {
        return "CREATE TABLE IF NOT EXISTS " + table
                + " (name VARCHAR(64) NOT NULL PRIMARY KEY, next_value BIGINT NOT NULL)"
                + (this == MARIADB ? " ENGINE = InnoDB" : "");
    }

    /** Column names avoid {@code first_value}, a reserved word of MySQL 8. */
    String createKeptTableSql(String keptTable) {
        return "CREATE TABLE IF NOT EXISTS " + keptTable + " (name VARCHAR(64) NOT NULL, range_start BIGINT NOT NULL,"
                + " range_end BIGINT NOT NULL, PRIMARY KEY (name, range_start))"
                + (this == MARIADB ? " ENGINE = InnoDB" : "");
    }

    /** A native sequence's increment, largest value and next value (the value {@code nextval} returns next). */
    record NativeSequenceState(long increment, long maxValue, long nextValue) {
    }

    /** Whether native sequences serve contiguous blocks (Spanner's are bit-reversed: not). */
    boolean hasContiguousSequences() {
        return nextvalSql != null;
    }

    /** A sequence name (already restricted to {@code A-Z a-z 0-9 _ . -}) as a quoted identifier. */
    String quote(String name) {
        return '"' + name + '"';
    }

    /** Creates a sequence if it is missing; the database's own cache stays 1 (no per-session cache). */
    String createSequenceSql(String quoted, long start, long increment, long maxValue) {
        throw noSequences();
    }

    /** A query of one row and column: the sequence's next value, consumed. */
    String nextvalSql(String quoted) {
        if (nextvalSql == null) {
            throw noSequences();
        }
        return nextvalSql.formatted(quoted);
    }

    /** Reads a sequence without consuming a value, or returns null if it does not exist. */
    @Nullable NativeSequenceState readSequence(Connection connection, String quoted) throws SQLException {
        throw noSequences();
    }

    /**
     * Moves the sequence forward so that it next returns {@code nextValue}, only if it would return less; returns
     * whether it moved it. Runs in a transaction when {@link #advanceNeedsTransaction()}. By default a read, then a
     * restart: no conditional restart, so atomic only against this JVM's native stores ({@link #serializesNextval}).
     */
    boolean advanceSequence(Connection connection, String quoted, long nextValue) throws SQLException {
        NativeSequenceState state = readSequence(connection, quoted);
        if (state == null || state.nextValue() >= nextValue) {
            return false;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("ALTER SEQUENCE " + quoted + " RESTART WITH " + nextValue);
        }
        return true;
    }

    /** Whether {@link #advanceSequence} must run in a transaction (it holds a lock until the commit). */
    boolean advanceNeedsTransaction() {
        return this == POSTGRESQL;
    }

    /** Whether nextval and {@link #advanceSequence} must run under one lock of this JVM to be atomic together. */
    boolean serializesNextval() {
        return this == H2 || this == HSQLDB;
    }

    /** Whether an error of nextval says that the sequence has passed its maximum value. */
    boolean isSequenceExhausted(SQLException e) {
        return sequenceExhausted.test(e);
    }

    boolean isSpanner() {
        return this == SPANNER || this == SPANNER_POSTGRESQL;
    }

    /** A failure of {@code what} on this database, transient as {@link #isTransient} says. */
    SequenceStoreException failure(String what, SQLException e) {
        return new SequenceStoreException(what + " (" + storeName() + ") failed: " + e.getMessage() + " [SQLSTATE "
                + e.getSQLState() + "]", e, isTransient(e));
    }

    private UnsupportedOperationException noSequences() {
        return new UnsupportedOperationException(name() + " has no native sequences that serve contiguous blocks");
    }

    /** Whether an insert met an existing key: SQLSTATE class 23, or Spanner's gRPC ALREADY_EXISTS (6). */
    boolean isDuplicateKey(SQLException e) {
        String state = e.getSQLState();
        return state != null && state.startsWith("23") || isSpanner() && e.getErrorCode() == 6;
    }

    /** Whether a retry may succeed: serialization failures, deadlocks, lock timeouts, lost connections, shutdowns. */
    boolean isTransient(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientException || t instanceof SQLRecoverableException) {
                return true;
            }
            if (t instanceof SQLException sql) {
                String state = sql.getSQLState();
                if (state != null && (state.startsWith("40") || state.startsWith("08")
                        || Set.of("57P01", "57P02", "57P03", "55P03", "HYT00").contains(state))) {
                    return true;
                }
                // MariaDB: 1205 lock wait timeout, 1213 deadlock, 1927 connection killed; Spanner's driver reports
                // the gRPC status: ABORTED (10), UNAVAILABLE (14).
                int code = sql.getErrorCode();
                if (this == MARIADB && (code == 1205 || code == 1213 || code == 1927)
                        || isSpanner() && (code == 10 || code == 14)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * {@return the dialect of a JDBC product name ({@link java.sql.DatabaseMetaData#getDatabaseProductName()})} An
     * {@link IllegalArgumentException} if the database is not supported.
     */
    public static JdbcDialect forProductName(@Nullable String productName) {
        String product = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        // Before PostgreSQL: the Spanner driver names PostgreSQL-dialect databases "Google Cloud Spanner PostgreSQL".
        if (product.contains("spanner")) {
            return product.contains("postgres") ? SPANNER_POSTGRESQL : SPANNER;
        }
        if (product.contains("postgres") || product.contains("cockroach") || product.contains("yugabyte")) {
            return POSTGRESQL;
        }
        if (product.contains("mariadb") || product.contains("mysql")) {
            return MARIADB;
        }
        if (product.equals("h2")) {
            return H2;
        }
        if (product.startsWith("hsql")) {
            return HSQLDB;
        }
        if (product.contains("derby")) {
            throw new IllegalArgumentException("seqgen does not serve Apache Derby ('" + productName + "'): the"
                    + " Apache Derby project is retired and Spring Boot 4.1 deprecates it; for an embedded database use"
                    + " H2 or HSQLDB (com.h2database:h2 or org.hsqldb:hsqldb), as Spring Boot's release notes advise;"
                    + " supported: " + SUPPORTED);
        }
        throw new IllegalArgumentException("seqgen has no JDBC dialect for the database '" + productName
                + "'; supported: " + SUPPORTED);
    }

    /** The {@code columns} of the sequence's row of an information-schema {@code view}, as longs; null if none. */
    private static long @Nullable [] sequenceRow(Connection connection, String quoted, String columns, String view)
            throws SQLException {
        try (PreparedStatement select = bind(connection.prepareStatement("SELECT " + columns
                + " FROM INFORMATION_SCHEMA." + view + " WHERE SEQUENCE_SCHEMA = CURRENT_SCHEMA AND SEQUENCE_NAME = ?"),
                quoted.substring(1, quoted.length() - 1)); ResultSet rs = select.executeQuery()) {
            if (!rs.next()) {
                return null;
            }
            long[] row = new long[rs.getMetaData().getColumnCount()];
            for (int i = 0; i < row.length; i++) {
                row[i] = rs.getLong(i + 1);
            }
            return row;
        }
    }

    private static @Nullable NativeSequenceState state(long @Nullable [] row) {
        return row == null ? null : new NativeSequenceState(row[0], row[1], row[2]);
    }
}
