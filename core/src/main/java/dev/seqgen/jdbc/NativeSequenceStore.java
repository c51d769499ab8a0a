package dev.seqgen.jdbc;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.CounterKind;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcDialect.NativeSequenceState;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SequenceStore} over the database's own sequences (PostgreSQL, MariaDB, H2, HSQLDB): each seqgen sequence
 * is a database sequence named {@linkplain Builder#prefix(String) prefix} + name whose {@code INCREMENT BY} is the
 * block size (1 for ASYNC), so one reservation is one {@code nextval}. No SYNC, no give-back, nothing kept for the
 * fleet; a missing sequence is created, an existing one adopted only if its increment matches. {@link #advance} is
 * atomic against every session on PostgreSQL and MariaDB, against this JVM's native stores only on H2 and HSQLDB.
 * See docs/native-sequences.md.
 */
public final class NativeSequenceStore implements SequenceStore, AutoCloseable {

    /** The default prefix of the database sequences' names. */
    public static final String DEFAULT_PREFIX = "seqgen_";

    /** The longest database sequence name: PostgreSQL's identifier limit (MariaDB allows 64). */
    static final int MAX_NAME_LENGTH = 63;

    private static final Pattern PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,31}");

    /** Serialises H2's and HSQLDB's nextval and advance in this JVM (see {@link JdbcDialect#serializesNextval()}). */
    private static final Object SEQUENCE_LOCK = new Object();

    private final JdbcConnections connections;
    private final String prefix;
    private final JdbcDialect dialect;
    /** By seqgen sequence name. */
    private final Map<String, Long> increments = new ConcurrentHashMap<>();

    private NativeSequenceStore(Builder builder) {
        this.connections = new JdbcConnections(builder.dataSource, builder.dedicatedConnection, builder.dialect,
                "native-sequence store");
        this.dialect = connections.dialect();
        this.prefix = builder.prefix;
        if (!dialect.hasContiguousSequences()) {
            close();
            throw new IllegalArgumentException("the native-sequence store does not support " + dialect.storeName()
                    + ": its sequences are bit-reversed and cannot serve contiguous blocks; use the table store");
        }
    }

    /** {@return a builder for a store over {@code dataSource}} */
    public static Builder builder(DataSource dataSource) {
        return new Builder(dataSource);
    }

    /** Returns the dedicated connection to the pool, if the store borrowed one. */
    @Override
    public void close() {
        connections.close();
    }

    /** {@return the dialect in use} */
    public JdbcDialect dialect() {
        return dialect;
    }

    /** {@return the prefix of the database sequences' names} */
    public String prefix() {
        return prefix;
    }

    /**
     * {@return the unquoted name of the database sequence behind a seqgen sequence: the prefix and the name}
     *
     * @throws SequenceConfigurationException if the result is longer than {@value #MAX_NAME_LENGTH} characters
     */
    public String databaseSequenceName(String sequence) {
        String name = prefix + sequence;
        if (name.length() > MAX_NAME_LENGTH) {
            throw new SequenceConfigurationException("sequence name", "'" + sequence + "'", "at most "
                    + (MAX_NAME_LENGTH - prefix.length()) + " characters with the native-sequence store, whose"
                    + " database sequence " + name + " would be longer than " + MAX_NAME_LENGTH);
        }
        return name;
    }

    @Override
    public CounterKind kind() {
        return CounterKind.NATIVE_SEQUENCE;
    }

    @Override
    public String name() {
        return dialect.storeName();
    }

    @Override
    public String toString() {
        return "NativeSequenceStore[" + dialect.name().toLowerCase(Locale.ROOT) + ", sequences " + prefix + "*"
                + ", " + connections + "]";
    }

    /** {@return false: a sequence hands out exactly its increment per {@code nextval}} */
    @Override
    public boolean variableReservationSizes() {
        return false;
    }

    /**
     * Creates the database sequence with the increment the strategy reserves, or adopts one whose increment matches.
     *
     * @throws SequenceConfigurationException if the strategy is SYNC, or the name is too long
     * @throws SequenceStoreException if the existing sequence's increment differs, or the database failed
     */
    @Override
    public void createSequence(String sequence, SequenceSettings settings) {
        String databaseName = databaseSequenceName(sequence);
        if (settings.strategy() == Strategy.SYNC) {
            throw new SequenceConfigurationException("strategy", "sync (sequence '" + sequence + "')",
                    "async, batch or async-batch with the native-sequence store: database sequence " + databaseName
                            + " cannot be rolled back with the caller's transaction, so it cannot give gapless"
                            + " numbers; use the table store for SYNC");
        }
        long increment = settings.strategy() == Strategy.ASYNC ? 1 : settings.blockSize();
        String quoted = dialect.quote(databaseName);
        NativeSequenceState state = connections.read(connection -> {
            NativeSequenceState existing = dialect.readSequence(connection, quoted);
            if (existing != null) {
                return existing;
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute(dialect.createSequenceSql(quoted, settings.initialValue(), increment,
                        settings.maxValue()));
                if (!connection.getAutoCommit()) {
                    connection.commit();
                }
            } catch (SQLException e) {
                // A concurrent creator (PostgreSQL may report a duplicate despite IF NOT EXISTS): it exists.
                if (dialect.readSequence(connection, quoted) == null) {
                    throw e;
                }
            }
            return dialect.readSequence(connection, quoted);
        }, e -> dialect.failure("creating database sequence " + databaseName + " of sequence '" + sequence + "'", e));
        if (state == null) {
            throw new SequenceStoreException("database sequence " + databaseName + " of sequence '" + sequence
                    + "' is missing right after CREATE SEQUENCE", null, true);
        }
        if (state.increment() != increment) {
            throw new SequenceStoreException("database sequence " + databaseName + " of sequence '" + sequence
                    + "' has INCREMENT BY " + state.increment() + " but " + settings.strategy() + " reserves "
                    + increment + (settings.strategy() == Strategy.ASYNC ? " value" : " values (the block size)")
                    + " per nextval: give the sequence block-size " + state.increment() + ", or change the"
                    + " increment of the database sequence (ALTER SEQUENCE " + databaseName + " INCREMENT BY "
                    + increment + ")", null, false);
        }
        increments.put(sequence, increment);
    }

    /**
     * Adopts an existing database sequence whatever its increment.
     *
     * @throws SequenceStoreException if the database sequence is missing, or the database failed
     */
    @Override
    public void createSequence(String sequence, long initialValue) {
        if (readState(sequence) == null) {
            throw new SequenceStoreException("database sequence " + databaseSequenceName(sequence) + " of sequence '"
                    + sequence + "' does not exist, and the native-sequence store creates it only with the sequence's"
                    + " settings (its increment is the block size): open the sequence through a SequenceRegistry",
                    null, false);
        }
    }

    /**
     * Takes one block with one {@code nextval}, cut short at {@code maxValue}.
     *
     * @throws SequenceStoreException if {@code count} is not the database sequence's increment, or the database failed
     */
    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        long increment = increment(sequence);
        if (count != increment) {
            throw new SequenceStoreException("sequence '" + sequence + "': database sequence "
                    + databaseSequenceName(sequence) + " hands out blocks of exactly " + increment
                    + " value(s) (its INCREMENT BY), not " + count + "; the native-sequence store cannot serve"
                    + (increment == 1 ? " several consecutive values to one ASYNC call" : " another block size"),
                    null, false);
        }
        String quoted = dialect.quote(databaseSequenceName(sequence));
        long first = connections.read(connection -> serialized(connection, locked -> nextval(locked, quoted)),
                e -> dialect.isSequenceExhausted(e) ? new SequenceExhaustedException(sequence, maxValue)
                        : dialect.failure("reserving a block of sequence '" + sequence + "'", e));
        if (first > maxValue) {
            throw new SequenceExhaustedException(sequence, maxValue);
        }
        return ReservedRange.upTo(first, increment, maxValue);
    }

    private long nextval(Connection connection, String quoted) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(dialect.nextvalSql(quoted))) {
            rs.next();
            long value = rs.getLong(1);
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
            return value;
        }
    }

    /** Runs the work under {@link #SEQUENCE_LOCK} if {@link JdbcDialect#serializesNextval} says so. */
    private <T extends @Nullable Object> T serialized(Connection connection, JdbcConnections.SqlWork<T> work)
            throws SQLException {
        if (!dialect.serializesNextval()) {
            return work.run(connection);
        }
        synchronized (SEQUENCE_LOCK) {
            return work.run(connection);
        }
    }

    private long increment(String sequence) {
        Long known = increments.get(sequence);
        if (known != null) {
            return known;
        }
        NativeSequenceState state = readState(sequence);
        if (state == null) {
            throw new SequenceStoreException("sequence '" + sequence + "' has no database sequence "
                    + databaseSequenceName(sequence) + " (was it dropped?)", null, false);
        }
        increments.put(sequence, state.increment());
        return state.increment();
    }

    /** Always throws {@link UnsupportedOperationException}: a sequence increment cannot be rolled back. */
    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        throw new UnsupportedOperationException("sequence '" + sequence + "': the native-sequence store cannot take"
                + " values in the caller's transaction (database sequence " + databaseSequenceName(sequence)
                + " cannot be rolled back); SYNC needs the table store");
    }

    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        return connections.read(connection -> OptionalLong.of(ApplicationTables.highestCounter(connection, table,
                column, settings)), e -> dialect.failure("reading the values of column " + column + " of table "
                        + table, e));
    }

    /** Reads the value the database sequence returns next, without consuming it. */
    @Override
    public OptionalLong nextValue(String sequence) {
        NativeSequenceState state = readState(sequence);
        return state == null ? OptionalLong.empty() : OptionalLong.of(state.nextValue());
    }

    private @Nullable NativeSequenceState readState(String sequence) {
        String databaseName = databaseSequenceName(sequence);
        return connections.read(connection -> dialect.readSequence(connection, dialect.quote(databaseName)),
                e -> dialect.failure("reading database sequence " + databaseName + " of sequence '" + sequence + "'",
                        e));
    }

    /** {@return false: a sequence has no compare-and-set, so the unused values are a gap} */
    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        return false;
    }

    /** {@inheritDoc} Atomic as the class documentation says per database. */
    @Override
    public boolean advance(String sequence, long nextValue) {
        String databaseName = databaseSequenceName(sequence);
        String quoted = dialect.quote(databaseName);
        boolean begin = dialect.advanceNeedsTransaction();
        return connections.read(connection -> dialect.readSequence(connection, quoted) != null
                && serialized(connection, locked -> JdbcConnections.inTransaction(locked, begin,
                        moving -> dialect.advanceSequence(moving, quoted, nextValue))),
                e -> dialect.failure("moving database sequence " + databaseName + " of sequence '" + sequence
                        + "' forward to " + nextValue, e));
    }

    /** Builds a {@link NativeSequenceStore}. */
    public static final class Builder {

        private final DataSource dataSource;
        private String prefix = DEFAULT_PREFIX;
        private @Nullable JdbcDialect dialect;
        private boolean dedicatedConnection;

        private Builder(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        }

        /**
         * Sets the prefix of the sequences' names (quoted, in the current schema). Default {@value #DEFAULT_PREFIX}.
         *
         * @throws SequenceConfigurationException unless 1 to 32 of {@code A-Z a-z 0-9 _}, not starting with a digit
         */
        public Builder prefix(String prefix) {
            return prefix(prefix, "prefix");
        }

        /** As {@link #prefix(String)}, a wrong prefix reported under the setting {@code setting}. */
        public Builder prefix(@Nullable String prefix, String setting) {
            if (prefix == null || !PREFIX.matcher(prefix).matches()) {
                throw new SequenceConfigurationException(setting, prefix == null ? null : "'" + prefix + "'",
                        "1 to 32 characters of A-Z a-z 0-9 _, starting with a letter or underscore");
            }
            this.prefix = prefix;
            return this;
        }

        /** As {@link JdbcSequenceStore.Builder#dedicatedConnection(boolean)}. Default false. */
        public Builder dedicatedConnection(boolean dedicatedConnection) {
            this.dedicatedConnection = dedicatedConnection;
            return this;
        }

        /** Sets the dialect. Default: detected from the database's product name. */
        public Builder dialect(JdbcDialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * Builds the store; detects the dialect (one connection) unless one was set.
         *
         * @throws SequenceStoreException if the dialect could not be detected
         * @throws IllegalArgumentException if the database is not supported, or has no contiguous sequences (Spanner)
         */
        public NativeSequenceStore build() {
            return new NativeSequenceStore(this);
        }
    }
}
