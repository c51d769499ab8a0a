package dev.seqgen.jdbc;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcConnections.SqlWork;
import dev.seqgen.jdbc.JdbcDialect.Sql;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SequenceStore} over a JDBC {@link DataSource}: a table of {@code (name, next_value)} rows, SQL per database
 * in {@link JdbcDialect}, and the table of ranges kept for the fleet ({@code <table>_kept}). {@link #reserve} runs in
 * a transaction of its own; {@link #reserveInTransaction} on the caller's {@link Connection} (auto-commit off), whose
 * row lock lasts until the caller commits. Thread-safe.
 */
public final class JdbcSequenceStore implements SequenceStore, AutoCloseable {

    /** The default table name. */
    public static final String DEFAULT_TABLE = "seqgen_sequences";

    private static final System.Logger LOG = System.getLogger(JdbcSequenceStore.class.getName());
    /** Updates tried while the row stays where it was (two suffice after a locking read). */
    private static final int MAX_INCREMENT_ATTEMPTS = 4;
    private static final int TAKE_CANDIDATES = 8;

    private final JdbcConnections connections;
    private final String table;
    private final String keptTable;
    private final boolean createTable;
    private final JdbcDialect dialect;
    private volatile boolean tableReady;
    /** Set once the queue at the rows could not be read ({@link RowQueue}): later start-up reservations do not try. */
    private volatile boolean rowQueueUnreadable;

    private JdbcSequenceStore(Builder builder) {
        this.connections = new JdbcConnections(builder.dataSource, builder.dedicatedConnection, builder.dialect,
                "JDBC store");
        this.dialect = connections.dialect();
        this.table = builder.table;
        this.keptTable = Identifiers.keptTableName(builder.table);
        this.createTable = builder.createTable;
    }

    /** Returns the dedicated connection to the pool, if any; close the registries over this store first. */
    @Override
    public void close() {
        connections.close();
    }

    /** {@return a builder for a store over {@code dataSource}} */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** {@return the dialect in use} */
    public JdbcDialect dialect() {
        return dialect;
    }

    /** {@return the (validated) table name} */
    public String table() {
        return table;
    }

    @Override
    public String name() {
        return dialect.storeName();
    }

    /** {@return {@code java.sql.Connection}: SYNC increments the row on the caller's connection, in its transaction} */
    @Override
    public Class<?> transactionType() {
        return Connection.class;
    }

    /** {@return the table of the rows, with the platform of its database} */
    @Override
    public Optional<SqlTable> sqlTable() {
        return Optional.of(new SqlTable(table, dialect.platform()));
    }

    @Override
    public String toString() {
        return "JdbcSequenceStore[" + dialect.name().toLowerCase(Locale.ROOT) + ", table " + table
                + ", " + connections + "]";
    }

    /** {@inheritDoc} On HSQLDB a SYNC sequence needs MVCC mode, as other modes lock the whole table. */
    @Override
    public void createSequence(String sequence, SequenceSettings settings) {
        if (dialect == JdbcDialect.HSQLDB && settings.strategy() == Strategy.SYNC) {
            String mode = read("reading HSQLDB's transaction control mode for sequence creation", connection -> {
                try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(
                        "SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES"
                                + " WHERE PROPERTY_NAME = 'hsqldb.tx'")) {
                    return rs.next() ? rs.getString(1) : "LOCKS";
                }
            });
            if (!"MVCC".equalsIgnoreCase(mode)) {
                throw new SequenceConfigurationException("sequences." + sequence + ".strategy", "sync",
                        "a strategy that takes values in transactions of its own (async, batch, async-batch), or"
                                + " HSQLDB in MVCC mode (hsqldb.tx=mvcc in the JDBC URL, or SET DATABASE TRANSACTION"
                                + " CONTROL MVCC): this database is in " + mode + " mode, where a SYNC increment"
                                + " locks the whole table " + table + " until the caller's transaction ends");
            }
        }
        createSequence(sequence, settings.initialValue());
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        // Racing creators at SERIALIZABLE fail with 40001 (transient): the retry's insert-if-missing finds the row.
        try {
            if (createTable && !tableReady) {
                createTable();
            }
            connections.inOwnTransaction(connection -> {
                // Where the queue at the row sizes a fleet's start (PostgreSQL, MariaDB), a plain read first: there an
                // insert-if-missing of an existing row waits behind the row's lock (a row a transaction in progress
                // has updated; the duplicate key's shared lock), so a fleet starting at once would queue twice. An
                // update of no row then fails a read-only session or an unwritable table at first use, as the insert
                // does, without waiting.
                if (RowQueue.sql(dialect) != null && dialect.readNextValue(connection, table, sequence, false)
                        .isPresent()) {
                    return update(connection, Sql.TOUCH_NOTHING.formatted(table), sequence);
                }
                return update(connection, dialect.insertIfMissingSql(table), sequence, initialValue);
            });
        } catch (SQLException e) {
            // H2's MERGE can hit a racing creator's row: committed is enough, uncommitted is transient.
            if (e.getSQLState() != null && e.getSQLState().startsWith("23")) {
                if (nextValue(sequence).isPresent()) {
                    return;
                }
                throw new SequenceStoreException("creating the row of sequence '" + sequence + "' in table " + table
                        + " (" + dialect.storeName() + ") met another creator's row, not yet committed: "
                        + e.getMessage() + " [SQLSTATE " + e.getSQLState() + "]", e, true);
            }
            throw failure("creating the row of sequence '" + sequence + "'", e);
        }
    }

    /** Creates the missing tables now, not with the first sequence; safe from several processes at once. */
    public void createTableIfMissing() {
        try {
            createTable();
        } catch (SQLException e) {
            throw dialect.failure("creating table " + table + " or " + keptTable, e);
        }
    }

    private synchronized void createTable() throws SQLException {
        if (tableReady) {
            return;
        }
        try (Connection connection = connections.get()) {
            if (!connection.getAutoCommit()) {
                connection.setAutoCommit(true);
            }
            createIfMissing(connection, table, dialect.createTableSql(table));
            createIfMissing(connection, keptTable, dialect.createKeptTableSql(keptTable));
        }
        tableReady = true;
    }

    private void createIfMissing(Connection connection, String name, String ddl) throws SQLException {
        // Looked up first: even CREATE TABLE IF NOT EXISTS is DDL, which HSQLDB runs only with no transaction open.
        if (tableExists(connection, name)) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(ddl);
        } catch (SQLException e) {
            // A concurrent creator (PostgreSQL may report a duplicate despite IF NOT EXISTS): it exists, enough.
            if (!tableExists(connection, name)) {
                throw e;
            }
        }
    }

    private static boolean tableExists(Connection connection, String name) {
        try (Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT COUNT(*) FROM " + name + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        return own(connection -> increment(connection, sequence, count, maxValue),
                e -> failure("reserving " + count + " value(s) of sequence '" + sequence + "'", e));
    }

    /**
     * On PostgreSQL and MariaDB, reads the queue at the table's rows ({@link RowQueue}) before locking the row
     * (ahead: the waiters plus the holder) and after (behind: the waiters). Elsewhere, or where the queue cannot be
     * read, as the default.
     */
    @Override
    public ReservedRange reserveSized(String sequence, Sizing sizing, long maxValue) {
        String queueSql = rowQueueUnreadable ? null : RowQueue.sql(dialect);
        if (queueSql == null) {
            return SequenceStore.super.reserveSized(sequence, sizing, maxValue);
        }
        ReservedRange range = own(connection -> {
            int waiting;
            try {
                waiting = RowQueue.waiters(connection, queueSql, table);
            } catch (SQLException e) {
                rowQueueUnreadable = true;
                LOG.log(Level.INFO, "sequence '" + sequence + "': the " + dialect.storeName() + " store cannot read the"
                        + " queue at its rows (" + e.getMessage() + "); start-up blocks are sized without it");
                return null;
            }
            long asked = System.nanoTime();
            dialect.readNextValue(connection, table, sequence, true);
            long waited = System.nanoTime() - asked;
            long count = sizing.size(waited, waiting == 0 ? 0 : waiting + 1,
                    RowQueue.waiters(connection, queueSql, table));
            return increment(connection, sequence, count, maxValue);
        }, e -> failure("reserving values of sequence '" + sequence + "' sized by the queue at its row", e));
        return range != null ? range : SequenceStore.super.reserveSized(sequence, sizing, maxValue);
    }

    /**
     * On PostgreSQL and MariaDB, the waiters for the table's rows ({@link RowQueue}); -1 elsewhere or where that read
     * fails.
     */
    @Override
    public int queuedAt(String sequence) {
        String queueSql = rowQueueUnreadable ? null : RowQueue.sql(dialect);
        try {
            return queueSql == null ? -1 : read("reading the queue at the row of sequence '" + sequence + "'",
                    connection -> RowQueue.waiters(connection, queueSql, table));
        } catch (SequenceStoreException e) {
            return -1;
        }
    }

    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        return inCallers(transaction, sequence, "incrementing sequence '" + sequence + "' in the caller's transaction",
                connection -> increment(connection, sequence, count, maxValue));
    }

    private <T extends @Nullable Object> T own(SqlWork<T> work, Function<SQLException, RuntimeException> failure) {
        try {
            return connections.inOwnTransaction(work);
        } catch (SQLException e) {
            throw failure.apply(e);
        }
    }

    private <T extends @Nullable Object> T read(String what, SqlWork<T> work) {
        return connections.read(work, e -> failure(what, e));
    }

    /** Runs the work in the caller's transaction, which must not be in auto-commit mode. */
    private <T extends @Nullable Object> T inCallers(@Nullable Object transaction, String sequence, String what,
            SqlWork<T> work) {
        if (!(transaction instanceof Connection connection)) {
            throw new IllegalArgumentException("the JDBC store takes a java.sql.Connection as the caller's transaction,"
                    + " got " + (transaction == null ? "null" : transaction.getClass().getName()));
        }
        try {
            if (connection.getAutoCommit()) {
                throw new IllegalArgumentException("sequence '" + sequence + "': the caller's connection is in"
                        + " auto-commit mode, so the SYNC increment could not be rolled back; begin a transaction");
            }
            return work.run(connection);
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * Takes up to {@code count} values, fewer only near {@code maxValue}; fails if the row is missing. A guarded update
     * that matched no row is followed by a locking read; see docs/design.md#jdbc-increment.
     */
    private ReservedRange increment(Connection connection, String sequence, long count, long maxValue)
            throws SQLException {
        long wanted = count;
        long lastRead = Long.MIN_VALUE;
        for (int attempt = 1; ; attempt++) {
            // Computed here, never in SQL, so no database evaluates an overflowing sum.
            long lastStart = ReservedRange.lastStart(wanted, maxValue);
            long next = dialect.increment(connection, table, sequence, wanted, lastStart);
            if (next != JdbcDialect.NO_ROW) {
                return new ReservedRange(next - wanted, next);
            }
            OptionalLong current = dialect.readNextValue(connection, table, sequence, true);
            if (current.isEmpty()) {
                throw new SequenceStoreException("sequence '" + sequence + "' has no row in table " + table
                        + " (was it deleted?)", null, false);
            }
            if (current.getAsLong() > maxValue) {
                throw new SequenceExhaustedException(sequence, maxValue);
            }
            if (current.getAsLong() != lastRead) {
                // The row moved since the last read: another caller took values, so this is progress.
                lastRead = current.getAsLong();
                attempt = 1;
            }
            if (attempt == MAX_INCREMENT_ATTEMPTS) {
                throw new SequenceStoreException("sequence '" + sequence + "' in table " + table + " ("
                        + dialect.storeName() + "): the row reads " + current.getAsLong() + " but an update of "
                        + wanted + " value(s) below the maximum " + maxValue + " matched no row, "
                        + MAX_INCREMENT_ATTEMPTS + " times", null, false);
            }
            // The block does not fit: take what is left below the maximum.
            wanted = ReservedRange.fitting(current.getAsLong(), count, maxValue);
        }
    }

    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        return read("reading the values of column " + column + " of table " + table, connection -> OptionalLong.of(
                ApplicationTables.highestCounter(connection, table, column, settings)));
    }

    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings, List<Where> where) {
        return read("reading the values of column " + column + " of table " + table + " in one series",
                connection -> OptionalLong.of(ApplicationTables.highestInSeries(connection, table, column, where,
                        null)));
    }

    @Override
    public OptionalLong highestFormatted(String table, String column, List<Where> where,
            ToLongFunction<String> counterOf) {
        return read("reading the formatted numbers of column " + column + " of table " + table,
                connection -> OptionalLong.of(ApplicationTables.highestInSeries(connection, table, column, where,
                        counterOf)));
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        return read("reading sequence '" + sequence + "'",
                connection -> dialect.readNextValue(connection, table, sequence, false));
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        return own(connection -> update(connection, Sql.GIVE_BACK.formatted(table), restoredNextValue, sequence,
                expectedNextValue) == 1, e -> failure("giving back values of sequence '" + sequence + "'", e));
    }

    @Override
    public boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        return inCallers(transaction, sequence, "giving back values of sequence '" + sequence
                + "' in the caller's transaction", connection -> update(connection, Sql.GIVE_BACK.formatted(table),
                        restoredNextValue, sequence, expectedNextValue) == 1);
    }

    /** Runs an update, the parameters strings or longs; {@return the number of rows it changed} */
    private static int update(Connection connection, String sql, Object... parameters) throws SQLException {
        try (PreparedStatement statement = JdbcDialect.bind(connection.prepareStatement(sql), parameters)) {
            return statement.executeUpdate();
        }
    }

    // Kept ranges: a take deletes the row exactly as read, the one claim; see docs/design.md#kept-ranges.

    /** {@inheritDoc} A row of the table {@code <table>_kept}, which must exist. */
    @Override
    public boolean keep(String sequence, long first, long end) {
        try {
            connections.inOwnTransaction(
                    connection -> update(connection, Sql.KEEP.formatted(keptTable), sequence, first, end));
            return true;
        } catch (SQLException e) {
            // An earlier attempt whose commit was not confirmed may have kept the range already: the row is there.
            if (dialect.isDuplicateKey(e) && keptRanges(sequence).contains(new ReservedRange(first, end))) {
                return true;
            }
            throw keptFailure("keeping [" + first + ", " + end + ") of sequence '" + sequence + "' for the fleet", e);
        }
    }

    /** Takes the lowest kept range whole. */
    @Override
    public Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return takeKept(sequence, Long.MAX_VALUE, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return takeKept(sequence, Long.MIN_VALUE, count, maxValue);
    }

    /** {@inheritDoc} A larger range is split, its rest kept again in the same transaction. */
    @Override
    public Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
        ReservedRange.requireCount(count);
        return own(connection -> {
            for (ReservedRange candidate : readKept(connection, sequence, from, TAKE_CANDIDATES)) {
                if (candidate.first() > maxValue) {
                    break;
                }
                if (update(connection, Sql.TAKE_KEPT.formatted(keptTable), sequence, candidate.first(),
                        candidate.end()) != 1) {
                    continue;
                }
                ReservedRange taken = ReservedRange.upTo(candidate.first(), Math.min(count, candidate.count()),
                        maxValue);
                if (taken.count() == count && taken.end() < candidate.end()) {
                    update(connection, Sql.KEEP.formatted(keptTable), sequence, taken.end(), candidate.end());
                }
                return Optional.of(taken);
            }
            return Optional.<ReservedRange>empty();
        }, e -> keptFailure("taking a kept range of sequence '" + sequence + "'", e));
    }

    @Override
    public List<ReservedRange> keptRanges(String sequence) {
        return connections.read(connection -> readKept(connection, sequence, Long.MIN_VALUE, 0),
                e -> keptFailure("reading the kept ranges of sequence '" + sequence + "'", e));
    }

    /** Up to {@code limit} kept ranges (all for 0) from {@code from}, lowest first. */
    private List<ReservedRange> readKept(Connection connection, String sequence, long from, int limit)
            throws SQLException {
        try (PreparedStatement select = JdbcDialect.bind(connection.prepareStatement(
                Sql.KEPT_RANGES.formatted(keptTable)), sequence, from)) {
            select.setMaxRows(limit);
            List<ReservedRange> ranges = new ArrayList<>();
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    ranges.add(new ReservedRange(rs.getLong(1), rs.getLong(2)));
                }
            }
            return ranges;
        }
    }

    private SequenceStoreException keptFailure(String what, SQLException e) {
        return new SequenceStoreException(what + " in table " + keptTable + " (" + dialect.storeName() + ") failed: "
                + e.getMessage() + " [SQLSTATE " + e.getSQLState() + "]; if the table is missing, create it: "
                + dialect.createKeptTableSql(keptTable), e, dialect.isTransient(e));
    }

    @Override
    public boolean advance(String sequence, long nextValue) {
        return own(connection -> update(connection, "UPDATE " + table + " SET next_value = ? WHERE name = ?"
                + " AND next_value < ?", nextValue, sequence, nextValue) == 1,
                e -> failure("moving the row of sequence '" + sequence + "' forward to " + nextValue, e));
    }

    private SequenceStoreException failure(String what, SQLException e) {
        return dialect.failure(what + " in table " + table, e);
    }

    /** Builds a {@link JdbcSequenceStore}. */
    public static final class Builder {

        private final DataSource dataSource;
        private String table = DEFAULT_TABLE;
        private boolean createTable = true;
        private @Nullable JdbcDialect dialect;
        private boolean dedicatedConnection;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /** Sets the table, a plain identifier, optionally schema-qualified. Default {@value #DEFAULT_TABLE}. */
        public Builder table(String table) {
            return table(table, "table");
        }

        /** As {@link #table(String)}, a wrong name reported under the setting {@code setting}. */
        public Builder table(String table, String setting) {
            this.table = Identifiers.requireTableName(setting, table);
            return this;
        }

        /** Sets whether the tables are created, if missing, with the first sequence. Default true. */
        public Builder createTable(boolean createTable) {
            this.createTable = createTable;
            return this;
        }

        /**
         * Sets whether the store keeps one pooled connection until {@link JdbcSequenceStore#close()} and runs its
         * statements on it, one at a time, so threads holding pooled connections cannot deadlock a small pool (false).
         */
        public Builder dedicatedConnection(boolean dedicatedConnection) {
            this.dedicatedConnection = dedicatedConnection;
            return this;
        }

        /** Sets the dialect. Default: detected from the database's product name. */
        public Builder dialect(JdbcDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /** Builds the store, detecting the dialect (one connection) unless set; throws if the database is unknown. */
        public JdbcSequenceStore build() {
            return new JdbcSequenceStore(this);
        }
    }
}
