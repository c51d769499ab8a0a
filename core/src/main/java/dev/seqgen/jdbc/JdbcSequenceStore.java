package dev.seqgen.jdbc;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SequenceStore} over a JDBC {@link DataSource} (a HikariCP pool, typically): one table of
 * {@code (name VARCHAR(64) PRIMARY KEY, next_value BIGINT)} rows, with the SQL of each database in
 * {@link JdbcDialect}, and beside it the table of ranges kept for the fleet ({@link #keptTable()},
 * {@code (name, range_start, range_end)} keyed by {@code (name, range_start)}): what a graceful stop could not give
 * back to the row, handed out again once by {@link #takeKept}.
 *
 * <p>{@link #reserve} borrows a connection, runs the increment in a transaction of its own and returns the
 * connection before the values are handed out, so a caller never holds two pooled connections at once
 * because of seqgen. {@link #reserveInTransaction} runs the same statement on the caller's
 * {@link Connection}, which must have auto-commit off: the row stays locked and the increment stays
 * undone until the caller commits.
 *
 * <p>When the application's threads hold a pooled connection while they take values (every JPA transaction
 * does), a reservation that borrows a second connection from the same pool can deadlock a small pool: n
 * threads each hold one connection and wait for another. {@link Builder#dedicatedConnection(boolean)} avoids
 * that by borrowing one connection at build time and running seqgen's own statements on it, one at a time;
 * {@link #close()} returns it.
 */
public final class JdbcSequenceStore implements SequenceStore, AutoCloseable {

    /**
     * Updates tried by one increment, with the row found where it was, before it gives up: two suffice, as the
     * second follows a locking read.
     */
    private static final int MAX_INCREMENT_ATTEMPTS = 4;

    /** Kept ranges one {@link #takeKept} reads and tries, lowest first, before it gives up to other takers. */
    private static final int TAKE_CANDIDATES = 8;


    /** The default table name. */
    public static final String DEFAULT_TABLE = "seqgen_sequences";

    private final JdbcConnections connections;
    private final String table;
    /** The table of ranges kept for the fleet: see {@link #keep}. */
    private final String keptTable;
    private final boolean createTable;
    private final JdbcDialect dialect;
    private volatile boolean tableReady;

    private JdbcSequenceStore(Builder builder) {
        this.connections = new JdbcConnections(builder.dataSource, builder.dedicatedConnection, builder.dialect,
                "JDBC store");
        this.dialect = connections.dialect();
        this.table = builder.table;
        this.keptTable = Identifiers.keptTableName(builder.table);
        this.createTable = builder.createTable;
    }

    /**
     * Returns the dedicated connection to the pool, if the store borrowed one; otherwise does nothing. Close
     * the registries over this store first, so that they can give back their unused values.
     */
    @Override
    public void close() {
        connections.close();
    }

    /**
     * Returns a builder for a store over the given data source.
     *
     * @param dataSource where the sequence table lives
     * @return a new builder
     */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /**
     * Returns the dialect in use.
     *
     * @return the dialect
     */
    public JdbcDialect dialect() {
        return dialect;
    }

    /**
     * Returns the (validated) table name.
     *
     * @return the table name
     */
    public String table() {
        return table;
    }

    @Override
    public String name() {
        return dialect.storeName();
    }

    /**
     * Returns {@code java.sql.Connection}: SYNC increments the row on the caller's connection, in its transaction.
     *
     * @return {@code Connection.class}
     */
    @Override
    public Class<?> transactionType() {
        return Connection.class;
    }

    /**
     * Returns the table of the rows, with the platform of its database.
     *
     * @return the table
     */
    @Override
    public Optional<SqlTable> sqlTable() {
        return Optional.of(new SqlTable(table, dialect.platform()));
    }

    /** Describes the store for logs: database, table and connection use. */
    @Override
    public String toString() {
        return "JdbcSequenceStore[" + dialect.name().toLowerCase(java.util.Locale.ROOT) + ", table " + table
                + ", " + connections + "]";
    }

    /**
     * Creates the row as {@link #createSequence(String, long)} does, after checking that the database can serve the
     * strategy: on HSQLDB a SYNC sequence needs MVCC mode, since in HSQLDB's default LOCKS mode (and in MVLOCKS) the
     * increment in the caller's transaction locks the whole sequence table until that transaction ends, which would
     * block every other sequence of the table, and a reservation of another sequence made during that transaction
     * would wait for it for ever.
     */
    @Override
    public void createSequence(String sequence, SequenceSettings settings) {
        if (dialect == JdbcDialect.HSQLDB && settings.strategy() == Strategy.SYNC) {
            String mode = hsqldbTransactionControl();
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

    private String hsqldbTransactionControl() {
        try (Connection connection = connections.get(); Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT PROPERTY_VALUE FROM INFORMATION_SCHEMA.SYSTEM_PROPERTIES"
                        + " WHERE PROPERTY_NAME = 'hsqldb.tx'")) {
            return rs.next() ? rs.getString(1) : "LOCKS";
        } catch (SQLException e) {
            throw failure("reading HSQLDB's transaction control mode for sequence creation", e);
        }
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        // Creators racing for one new row at SERIALIZABLE (CockroachDB, YugabyteDB, PostgreSQL so configured)
        // fail with 40001, a transient error: the registry retries, and the insert-if-missing finds the row.
        try {
            if (createTable && !tableReady) {
                createTable();
            }
            connections.inOwnTransaction(connection -> {
                try (PreparedStatement insert = connection.prepareStatement(dialect.insertIfMissingSql(table))) {
                    insert.setString(1, sequence);
                    insert.setLong(2, initialValue);
                    insert.executeUpdate();
                }
                return null;
            });
        } catch (SQLException e) {
            // H2's MERGE checks for the row and then inserts it, so a creator racing another can see no row and still
            // hit the primary key (SQLSTATE class 23). The row is there then, which is all creation needs; if the
            // other creator has not committed it yet, trying again will find it (or insert it, if that one rolled
            // back): transient.
            if (isIntegrityViolation(e)) {
                OptionalLong existing = nextValue(sequence);
                if (existing.isPresent()) {
                    return;
                }
                throw new SequenceStoreException("creating the row of sequence '" + sequence + "' in table " + table
                        + " (" + dialect.storeName() + ") met another creator's row, not yet committed: "
                        + e.getMessage() + " [SQLSTATE " + e.getSQLState() + "]", e, true);
            }
            throw failure("creating the row of sequence '" + sequence + "'", e);
        }
    }

    private static boolean isIntegrityViolation(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("23");
    }

    /**
     * Returns the table the store keeps ranges for the fleet in ({@link #keep}): {@link #table()} with
     * {@code _kept} appended ({@link Identifiers#keptTableName}).
     *
     * @return the table of kept ranges
     */
    public String keptTable() {
        return keptTable;
    }

    /**
     * Creates the table and the table of kept ranges ({@code CREATE TABLE IF NOT EXISTS}, each only if it is
     * missing) now rather than with the first sequence, for frameworks that prepare the schema at start-up. Safe to
     * call from several processes at once.
     *
     * @throws SequenceStoreException if the table could not be created
     */
    public void createTableIfMissing() {
        try {
            createTable();
        } catch (SQLException e) {
            throw new SequenceStoreException("creating table " + table + " or " + keptTable + " (" + dialect.storeName()
                    + ") failed: "
                    + e.getMessage() + " [SQLSTATE " + e.getSQLState() + "]", e, dialect.isTransient(e));
        }
    }

    /**
     * Creates the sequence table and the table of kept ranges, each only if it is missing: an installation made
     * before seqgen kept ranges for the fleet gets the second table beside its first.
     */
    private synchronized void createTable() throws SQLException {
        if (tableReady) {
            return;
        }
        try (Connection connection = connections.get()) {
            if (!connection.getAutoCommit()) {
                connection.setAutoCommit(true);
            }
            List<String> ddl = dialect.createTablesSql(table);
            createIfMissing(connection, table, ddl.get(0));
            createIfMissing(connection, keptTable, ddl.get(1));
        }
        tableReady = true;
    }

    private void createIfMissing(Connection connection, String name, String ddl) throws SQLException {
        // Read before any DDL: even a CREATE TABLE IF NOT EXISTS of a table that exists is DDL, and HSQLDB runs
        // DDL only when no other transaction is open; a second application starting beside running ones
        // would queue their reservations behind it.
        if (tableExists(connection, name)) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(ddl);
        } catch (SQLException e) {
            // Two processes creating the table at once: PostgreSQL may report a duplicate catalog entry
            // although the statement said IF NOT EXISTS. The table exists then, which is all we need.
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
        try {
            return connections.inOwnTransaction(connection -> {
                ReservedRange range = increment(connection, sequence, count, maxValue);
                if (range == null) {
                    throw new SequenceStoreException("sequence '" + sequence + "' has no row in table " + table
                            + " (was it deleted?)", null, false);
                }
                return range;
            });
        } catch (SQLException e) {
            throw failure("reserving " + count + " value(s) of sequence '" + sequence + "'", e);
        }
    }

    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        Connection connection = callerConnection(transaction, sequence);
        try {
            ReservedRange range = increment(connection, sequence, count, maxValue);
            if (range == null) {
                throw new SequenceStoreException("sequence '" + sequence + "' has no row in table " + table, null,
                        false);
            }
            return range;
        } catch (SQLException e) {
            throw failure("incrementing sequence '" + sequence + "' in the caller's transaction", e);
        }
    }

    /** The caller's transaction as a connection that is in a transaction, or an IllegalArgumentException. */
    private Connection callerConnection(@Nullable Object transaction, String sequence) {
        if (!(transaction instanceof Connection connection)) {
            throw new IllegalArgumentException("the JDBC store takes a java.sql.Connection as the caller's transaction,"
                    + " got " + (transaction == null ? "null" : transaction.getClass().getName()));
        }
        boolean autoCommit;
        try {
            autoCommit = connection.getAutoCommit();
        } catch (SQLException e) {
            throw failure("reading the auto-commit mode of the caller's connection for sequence '" + sequence + "'",
                    e);
        }
        if (autoCommit) {
            throw new IllegalArgumentException("sequence '" + sequence + "': the caller's connection is in"
                    + " auto-commit mode, so the SYNC increment could not be rolled back; begin a transaction");
        }
        return connection;
    }

    /**
     * Takes up to {@code count} values: the whole block if it fits below {@code maxValue}, otherwise the rest
     * up to {@code maxValue}. Returns null if the row is missing.
     *
     * <p>When the guarded update matches no row, the row is read with a <em>locking</em> read: a plain read in
     * the caller's transaction would see that transaction's snapshot (MariaDB/MySQL at REPEATABLE READ), not the
     * committed value the update compared against, and a block computed from that stale value would never fit.
     * The locking read sees the latest committed value and holds the row until the transaction ends, so the
     * next update (sized from it) is the last one. Where the read takes no lock (HSQLDB in MVCC mode), another
     * transaction may move the row again before the next update; the loop goes on while the row keeps moving,
     * which ends: an update here fails only when the block does not fit below the maximum, and each move
     * consumes at least one of the fewer than {@code count} values left. Only attempts that find the row where
     * it was are counted, and bounded.
     */
    private @Nullable ReservedRange increment(Connection connection, String sequence, long count, long maxValue)
            throws SQLException {
        long wanted = count;
        long lastRead = Long.MIN_VALUE;
        for (int attempt = 1; ; attempt++) {
            // lastStart is computed here, never in SQL, so no database ever evaluates an overflowing sum.
            long lastStart = ReservedRange.lastStart(wanted, maxValue);
            long next = dialect.increment(connection, table, sequence, wanted, lastStart);
            if (next != JdbcDialect.NO_ROW) {
                return new ReservedRange(next - wanted, next);
            }
            OptionalLong current = readForUpdate(connection, sequence);
            if (current.isEmpty()) {
                return null;
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

    /** Reads on the store's own connection (see {@link ApplicationTables}), never in a caller's transaction. */
    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        try {
            return OptionalLong.of(ApplicationTables.highestCounter(connections, table, column, settings));
        } catch (SQLException e) {
            throw failure("reading the values of column " + column + " of table " + table, e);
        }
    }

    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings, List<Where> where) {
        try {
            return OptionalLong.of(ApplicationTables.highestInSeries(connections, table, column, where));
        } catch (SQLException e) {
            throw failure("reading the values of column " + column + " of table " + table + " in one series", e);
        }
    }

    @Override
    public OptionalLong highestFormatted(String table, String column, List<Where> where,
            java.util.function.ToLongFunction<String> counterOf) {
        try {
            return OptionalLong.of(ApplicationTables.highestFormatted(connections, table, column, where, counterOf));
        } catch (SQLException e) {
            throw failure("reading the formatted numbers of column " + column + " of table " + table, e);
        }
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        try (Connection connection = connections.get()) {
            return read(connection, sequence);
        } catch (SQLException e) {
            throw failure("reading sequence '" + sequence + "'", e);
        }
    }

    private OptionalLong readForUpdate(Connection connection, String sequence) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(dialect.selectForUpdateSql(table))) {
            select.setString(1, sequence);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    private OptionalLong read(Connection connection, String sequence) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(dialect.selectSql(table))) {
            select.setString(1, sequence);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        try {
            return connections.inOwnTransaction(
                    connection -> compareAndGiveBack(connection, sequence, expectedNextValue, restoredNextValue));
        } catch (SQLException e) {
            throw failure("giving back values of sequence '" + sequence + "'", e);
        }
    }

    @Override
    public boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        Connection connection = callerConnection(transaction, sequence);
        try {
            return compareAndGiveBack(connection, sequence, expectedNextValue, restoredNextValue);
        } catch (SQLException e) {
            throw failure("giving back values of sequence '" + sequence + "' in the caller's transaction", e);
        }
    }

    /** The guarded update of a give-back: the row moves back only if nobody reserved since. */
    private boolean compareAndGiveBack(Connection connection, String sequence, long expectedNextValue,
            long restoredNextValue) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(dialect.giveBackSql(table))) {
            update.setLong(1, restoredNextValue);
            update.setString(2, sequence);
            update.setLong(3, expectedNextValue);
            return update.executeUpdate() == 1;
        }
    }

    /*
     * Ranges kept for the fleet
     *
     * A graceful stop whose compare-and-set give-back fails (another instance reserved after it) keeps its unused
     * range as a row (name, range_start, range_end) of keptTable, inserted in a transaction of its own; the next
     * instance that starts the sequence takes it as its first block with takeKept. A value has one owner at any
     * time (see SequenceStore): the insert moves the range from the stopping instance to the table, and the take's
     * delete moves it from the table to one instance, atomically:
     *   - the delete names the row exactly as it was read; of two takers only the one whose delete changes the row
     *     hands it out, whatever the isolation level (a delete waiting on another's uncommitted delete finds no
     *     row once that one commits, or the row again if it rolled back);
     *   - the range is handed out only after the delete committed; a crash before the commit leaves the row kept,
     *     a crash after it loses the range: never both;
     *   - an insert retried after an unknown outcome meets its own row on the primary key: that is "kept".
     * The range stays below the row's next_value (it was reserved from the row, and the row never moves back into
     * a range someone owns), so a first block taken from here and later blocks from the row are increasing.
     * A take asks for what its first block needs: a larger range is split, the delete and the insert of the rest
     * [first + count, end) in the one transaction, so the rest moves back to the table as the taken part moves to
     * the instance, atomically; the rest's key (name, first + count) is free, as kept ranges never overlap.
     */

    /**
     * Keeps {@code [first, end)} as a row of {@link #keptTable()}, in a transaction of its own (see the comment
     * above). The table must exist: created with the sequence table when the store creates tables, by the schema
     * script otherwise.
     */
    @Override
    public boolean keep(String sequence, long first, long end) {
        try {
            return connections.inOwnTransaction(connection -> {
                try (PreparedStatement insert = connection.prepareStatement(dialect.keepSql(keptTable))) {
                    insert.setString(1, sequence);
                    insert.setLong(2, first);
                    insert.setLong(3, end);
                    insert.executeUpdate();
                }
                return true;
            });
        } catch (SQLException e) {
            // An earlier attempt whose commit was not confirmed may have kept the range already: the row is there.
            if (dialect.isDuplicateKey(e) && keptRanges(sequence).contains(new ReservedRange(first, end))) {
                return true;
            }
            throw keptFailure("keeping [" + first + ", " + end + ") of sequence '" + sequence + "' for the fleet", e);
        }
    }

    /** Takes the lowest kept range whose delete changes a row, whole (see {@link #takeKept(String, long, long)}). */
    @Override
    public Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return takeKept(sequence, Long.MAX_VALUE, maxValue);
    }

    /**
     * Takes at most {@code count} values of the lowest kept range whose delete changes a row, in a transaction of its
     * own (see the comment above): a larger range is split, its rest inserted again as a kept range in the same
     * transaction, so the rest is kept or, if the transaction fails, the whole range still is.
     */
    @Override
    public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        ReservedRange.requireCount(count);
        try {
            return connections.inOwnTransaction(connection -> {
                for (ReservedRange candidate : readKept(connection, sequence, TAKE_CANDIDATES)) {
                    if (candidate.first() > maxValue) {
                        break;
                    }
                    try (PreparedStatement delete = connection.prepareStatement(dialect.takeKeptSql(keptTable))) {
                        delete.setString(1, sequence);
                        delete.setLong(2, candidate.first());
                        delete.setLong(3, candidate.end());
                        if (delete.executeUpdate() != 1) {
                            continue;
                        }
                    }
                    ReservedRange taken = ReservedRange.upTo(candidate.first(), Math.min(count, candidate.count()),
                            maxValue);
                    if (taken.count() == count && taken.end() < candidate.end()) {
                        try (PreparedStatement rest = connection.prepareStatement(dialect.keepSql(keptTable))) {
                            rest.setString(1, sequence);
                            rest.setLong(2, taken.end());
                            rest.setLong(3, candidate.end());
                            rest.executeUpdate();
                        }
                    }
                    return Optional.of(taken);
                }
                return Optional.<ReservedRange>empty();
            });
        } catch (SQLException e) {
            throw keptFailure("taking a kept range of sequence '" + sequence + "'", e);
        }
    }

    @Override
    public List<ReservedRange> keptRanges(String sequence) {
        try (Connection connection = connections.get()) {
            return readKept(connection, sequence, 0);
        } catch (SQLException e) {
            throw keptFailure("reading the kept ranges of sequence '" + sequence + "'", e);
        }
    }

    /** Reads up to {@code limit} kept ranges (all for 0), lowest first. */
    private List<ReservedRange> readKept(Connection connection, String sequence, int limit) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(dialect.keptRangesSql(keptTable))) {
            select.setString(1, sequence);
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
        try {
            return connections.inOwnTransaction(connection -> {
                try (PreparedStatement update = connection.prepareStatement("UPDATE " + table
                        + " SET next_value = ? WHERE name = ? AND next_value < ?")) {
                    update.setLong(1, nextValue);
                    update.setString(2, sequence);
                    update.setLong(3, nextValue);
                    return update.executeUpdate() == 1;
                }
            });
        } catch (SQLException e) {
            throw failure("moving the row of sequence '" + sequence + "' forward to " + nextValue, e);
        }
    }

    private SequenceStoreException failure(String what, SQLException e) {
        return new SequenceStoreException(what + " in table " + table + " (" + dialect.storeName() + ") failed: "
                + e.getMessage() + " [SQLSTATE " + e.getSQLState() + "]", e, dialect.isTransient(e));
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

        /**
         * Sets the table, optionally schema-qualified. Default {@value #DEFAULT_TABLE}.
         *
         * @param table the table name
         * @return this builder
         * @throws SequenceConfigurationException if the name is not a plain identifier
         */
        public Builder table(String table) {
            return table(table, "table");
        }

        /**
         * Sets the table as a front end's setting gave it (a Spring Boot property, a Hibernate setting): a name
         * that is not allowed is refused here, under the name of that setting, so the user learns which key to
         * change.
         *
         * @param table the table name, optionally schema-qualified
         * @param setting the name of the setting that gave it
         * @return this builder
         * @throws SequenceConfigurationException naming {@code setting} if the name is not a plain identifier
         */
        public Builder table(String table, String setting) {
            this.table = Identifiers.requireTableName(setting, table);
            return this;
        }

        /**
         * Sets whether the table is created ({@code CREATE TABLE IF NOT EXISTS}) when the first sequence is
         * created. Default true.
         *
         * @param createTable whether to create the table
         * @return this builder
         */
        public Builder createTable(boolean createTable) {
            this.createTable = createTable;
            return this;
        }

        /**
         * Sets whether the store borrows one connection from the data source when it is built, keeps it until
         * {@link JdbcSequenceStore#close()}, and runs all its own statements on it, one at a time. Turn it on
         * when threads take values while holding a connection of the same pool (JPA transactions do): then a
         * reservation never waits for the pool, so a small pool cannot deadlock. The cost: one connection kept
         * for the store's life (the pool needs at least two), and reservations of different sequences run one
         * at a time (those of one sequence serialise on its row lock anyway). Default false.
         *
         * @param dedicatedConnection whether to keep a connection of its own
         * @return this builder
         */
        public Builder dedicatedConnection(boolean dedicatedConnection) {
            this.dedicatedConnection = dedicatedConnection;
            return this;
        }

        /**
         * Sets the dialect. Default: detected from the database's product name.
         *
         * @param dialect the dialect
         * @return this builder
         */
        public Builder dialect(JdbcDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * Builds the store; detects the dialect (one connection) unless one was set.
         *
         * @return the store
         * @throws SequenceStoreException if the dialect could not be detected
         * @throws IllegalArgumentException if the database is not supported
         */
        public JdbcSequenceStore build() {
            return new JdbcSequenceStore(this);
        }
    }
}
