package dev.seqgen.spanner;

import com.google.cloud.spanner.DatabaseAdminClient;
import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.ErrorCode;
import com.google.cloud.spanner.ReadContext;
import com.google.cloud.spanner.ResultSet;
import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.Statement;
import com.google.cloud.spanner.TransactionContext;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SequenceStore} on Cloud Spanner, GoogleSQL or PostgreSQL dialect ({@link Builder#dialect}): one row per
 * sequence in a table of {@code (name STRING(64), next_value INT64)} keyed by name (PostgreSQL dialect:
 * {@code varchar(64)}, {@code bigint}), reached through a {@link DatabaseClient}.
 *
 * <pre>{@code
 * SequenceStore store = SpannerSequenceStore.builder(spanner.getDatabaseClient(databaseId))
 *         .table("seqgen_sequences")
 *         .databaseAdminClient(spanner.getDatabaseAdminClient(), instanceId, databaseId.getDatabase())
 *         .createTable(true)
 *         .build();
 * }</pre>
 *
 * <p>The table and the table of ranges kept for the fleet ({@link #keep}), created on demand (each only if it is
 * missing) when {@link Builder#createTable(boolean)} is set, or beforehand (by migrations) with the statements of
 * {@link JdbcDialect#createTablesSql} of {@link JdbcDialect#SPANNER} (GoogleSQL) or
 * {@link JdbcDialect#SPANNER_POSTGRESQL}: the JDBC store's tables on Spanner, the same ones.
 *
 * <p>A reservation is one read-write transaction holding one statement,
 * {@code UPDATE t SET next_value = next_value + @count WHERE name = @name AND next_value <= @lastStart
 * THEN RETURN next_value}, where {@code lastStart = maxValue - count + 1} is computed in Java so that the
 * SQL can never overflow. Only when that statement changes no row does the transaction read the row, to
 * tell a missing row from an exhausted sequence and to take the values left below the maximum (a shorter
 * block, with the same statement).
 *
 * <p>{@link #reserveInTransaction} takes a {@link TransactionContext} and runs the same statements in it:
 * DML, not buffered mutations, so several values taken in one transaction are consecutive and each
 * statement sees the ones before it. When Spanner aborts the caller's transaction, the
 * {@link com.google.cloud.spanner.AbortedException} is rethrown as it is, so that the caller's
 * {@code TransactionRunner} or {@code TransactionManager} retries the whole transaction as Spanner
 * requires.
 *
 * <p>Every other operation opens a transaction or read of the store's own, which it runs on a thread of the
 * store's own (Spanner allows no nested transaction on the caller's thread) under a deadline of
 * {@link Builder#operationTimeout(Duration)}, while the caller waits.
 *
 * <p>Errors are {@link SequenceStoreException}s, transient for {@code ABORTED}, {@code UNAVAILABLE},
 * {@code DEADLINE_EXCEEDED} and {@code RESOURCE_EXHAUSTED}. Thread-safe.
 */
public final class SpannerSequenceStore implements SequenceStore {

    /*
     * Design: why reservations never run in the caller's transaction, and why ABORTED retries stay
     * exactly-once.
     *
     * Spanner has no nested transactions, and the Java client enforces it per thread: a thread inside
     * TransactionRunner.run() that asks for another transaction (or even a single-use read) gets
     * "Nested transactions are not supported". ASYNC, BATCH and ASYNC_BATCH reserve values in a
     * transaction of the store's own, and their callers are very often inside a transaction of their
     * own (an entity being persisted). So every operation that opens its own transaction or read runs on
     * a thread of the store (SpannerOwnThreads) while the caller waits for it: this is the workaround the
     * Spanner document itself gives ("requesting the sequence value by using a background thread and
     * waiting for the result"). The hop costs microseconds against a round trip of milliseconds. The
     * reservation then is an independent transaction that commits before the value is returned: if the
     * caller's transaction is later aborted and retried, the retry takes a new value and the old one is
     * a gap, never a duplicate. Only reserveInTransaction (SYNC) uses the caller's transaction, on the
     * caller's thread, and never opens one.
     *
     * Exactly-once under ABORTED: the increment is a DML statement inside a read-write transaction run by
     * DatabaseClient.readWriteTransaction().run(). When Spanner aborts the transaction, none of its
     * writes become visible, and the runner runs the callable again from the start in a new transaction
     * that reads the row afresh; the callable has no side effect outside the transaction and returns a
     * value computed only from what its own statements returned. So however often it is aborted and
     * retried, one reserve() call commits at most one increment and returns exactly the range that
     * increment committed. An error whose commit outcome is unknown (DEADLINE_EXCEEDED, UNAVAILABLE
     * during commit) is reported as transient; seqgen's retry then reserves a new range, so an
     * increment that did commit is lost as a gap but its values are never handed out.
     *
     * Bounded: each operation of the store's own runs in a gRPC Context with a deadline (operationTimeout),
     * which the client honours in its RPCs and in its retry loops (aborted transactions, broken streams;
     * it retries UNAVAILABLE on a streaming query for as long as the context lives). So a store outage
     * costs a caller at most the operation timeout per attempt, and the thread of the store's own is
     * released with it, instead of a thread left retrying for ever behind a caller that gave up.
     *
     * The emulator allows a single read-write transaction at a time: a reservation committed while a
     * caller's transaction is already active aborts the caller's transaction, whose retry takes another
     * value, and so on. On the emulator, take ASYNC or BATCH values before the first statement of the
     * transaction that uses them (as the Spanner document recommends anyway).
     */

    /** The table name used when none is set. */
    public static final String DEFAULT_TABLE = "seqgen_sequences";

    /** The operation timeout used when none is set: the default acquire timeout of a sequence. */
    public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofSeconds(5);

    /** The longest {@link #createSequence} waits for the schema change that creates the table. */
    private static final Duration CREATE_TABLE_TIMEOUT = Duration.ofMinutes(5);

    /** The longest {@link #highestCounter} may take: a pass over a table's keys, once per sequence. */
    private static final Duration READ_KEYS_TIMEOUT = Duration.ofMinutes(5);

    /** Error codes after which retrying the operation may succeed. */
    /** Kept ranges one {@link #takeKept} reads and tries, lowest first. */
    private static final int TAKE_CANDIDATES = 8;

    private static final Set<ErrorCode> TRANSIENT_ERRORS = EnumSet.of(ErrorCode.ABORTED, ErrorCode.UNAVAILABLE,
            ErrorCode.DEADLINE_EXCEEDED, ErrorCode.RESOURCE_EXHAUSTED);

    private final DatabaseClient client;
    private final String table;
    /** The table of ranges kept for the fleet: see {@link #keep}. */
    private final String keptTable;
    private final @Nullable DatabaseAdminClient adminClient;
    private final @Nullable String instanceId;
    private final @Nullable String databaseId;
    private final boolean createTable;
    private final Duration operationTimeout;

    /** The statements in the database's dialect, configured or asked for. */
    private final SpannerDialectDetection dialect;

    /** Whether the table is known to exist; only consulted when creating tables on demand. */
    private volatile boolean tableExists;

    private SpannerSequenceStore(Builder builder) {
        this.client = builder.client;
        this.table = builder.table;
        this.keptTable = Identifiers.keptTableName(builder.table);
        this.adminClient = builder.adminClient;
        this.instanceId = builder.instanceId;
        this.databaseId = builder.databaseId;
        this.createTable = builder.createTable;
        this.operationTimeout = builder.operationTimeout;
        this.dialect = new SpannerDialectDetection(client, builder.dialect);
    }

    /**
     * Returns a builder for a store over the given database.
     *
     * @param databaseClient the client of the database that holds (or will hold) the sequence table
     * @return a new builder
     * @throws NullPointerException if {@code databaseClient} is null
     */
    public static Builder builder(DatabaseClient databaseClient) {
        return new Builder(databaseClient);
    }

    /**
     * Returns {@code spanner}.
     *
     * @return the store name for metrics and messages
     */
    @Override
    public String name() {
        return "spanner";
    }

    /** Describes the store for logs: database and table. */
    @Override
    public String toString() {
        return "SpannerSequenceStore[" + (databaseId != null ? "database " + databaseId + ", " : "") + "table "
                + table + "]";
    }

    /**
     * Returns the name of the table that holds the sequences.
     *
     * @return the validated table name
     */
    public String table() {
        return table;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Creates the table first when the store was built with {@link Builder#createTable(boolean)} and
     * the table does not exist ({@code CREATE TABLE IF NOT EXISTS}, so concurrent creators agree). The row
     * is inserted in a read-write transaction that first reads it: two processes that both find it missing
     * conflict on that read, Spanner aborts one of them, and its retry finds the row and leaves it alone.
     */
    @Override
    public void createSequence(String sequence, long initialValue) {
        if (createTable && !tableExists) {
            SpannerOwnThreads.call(table, CREATE_TABLE_TIMEOUT, () -> {
                ensureTable();
                return null;
            });
        }
        SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                if (readNextValue(client.singleUse(), sequence) == null) {
                    client.readWriteTransaction().run(tx -> {
                        if (readNextValue(tx, sequence) == null) {
                            tx.executeUpdate(sql().insert(table, sequence, initialValue));
                        }
                        return null;
                    });
                }
            } catch (SpannerException e) {
                if (e.getErrorCode() != ErrorCode.ALREADY_EXISTS) {
                    throw storeError("could not create the row of sequence '" + sequence + "'", e);
                }
            }
            return null;
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Runs one read-write transaction of the store's own on a thread of the store's own, so it can be
     * called from inside a caller's Spanner transaction, which Spanner does not allow on the same thread.
     *
     * @throws SequenceStoreException also when the sequence's row does not exist (not transient): the row
     *     is created by {@link #createSequence}, and recreating a row that has gone could hand out values
     *     a second time
     */
    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        ReservedRange.requireCount(count);
        Outcome outcome = SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                return client.readWriteTransaction().run(tx -> take(tx, sequence, count, maxValue));
            } catch (SpannerException e) {
                throw storeError("could not reserve " + count + " value(s) of sequence '" + sequence + "'", e);
            }
        });
        return outcome.range(this, sequence, maxValue);
    }

    /**
     * Returns the client library's {@link TransactionContext}: SYNC increments the row in the caller's Spanner
     * read-write transaction.
     *
     * @return {@code TransactionContext.class}
     */
    @Override
    public Class<?> transactionType() {
        return TransactionContext.class;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Runs the reservation statements in the caller's transaction, on the caller's thread; the
     * increment commits or rolls back with it, and the row stays locked for other writers until then.
     *
     * @param transaction a {@link TransactionContext}, as passed to a {@code TransactionCallable} or
     *     returned by {@code TransactionManager.begin()}
     * @throws IllegalArgumentException if {@code transaction} is not a {@link TransactionContext}
     * @throws com.google.cloud.spanner.AbortedException if Spanner aborted the caller's transaction, which
     *     must then be retried as a whole (a {@code TransactionRunner} does that by itself)
     * @throws SequenceStoreException also when the sequence's row does not exist (not transient)
     */
    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        if (!(transaction instanceof TransactionContext tx)) {
            String given = transaction == null ? "null" : transaction.getClass().getName();
            throw new IllegalArgumentException("the spanner store needs a " + TransactionContext.class.getName()
                    + " as the caller's transaction, got " + given);
        }
        ReservedRange.requireCount(count);
        Outcome outcome;
        try {
            outcome = take(tx, sequence, count, maxValue);
        } catch (SpannerException e) {
            if (e.getErrorCode() == ErrorCode.ABORTED) {
                throw e;
            }
            throw storeError("could not reserve " + count + " value(s) of sequence '" + sequence
                    + "' in the caller's transaction", e);
        }
        return outcome.range(this, sequence, maxValue);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A single-use read (strong), on a thread of the store's own.
     */
    @Override
    public OptionalLong nextValue(String sequence) {
        Long next = SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                return readNextValue(client.singleUse(), sequence);
            } catch (SpannerException e) {
                throw storeError("could not read sequence '" + sequence + "'", e);
            }
        });
        return next == null ? OptionalLong.empty() : OptionalLong.of(next);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A single-use read (strong, no locks), on a thread of the store's own, of the application's table in the
     * store's database (entities on Cloud Spanner through the JDBC driver share it): {@code MAX} of the column
     * for sequential keys; for mapped keys one pass over the keys outside the skip range, each mapped back to its
     * counter, done once, when a sequence has no counter row yet. The table and column are given as the
     * application's schema names them.
     */
    @Override
    public OptionalLong highestCounter(String table, String column, dev.seqgen.SequenceSettings settings) {
        dev.seqgen.KeyRange skip = settings.skipRange();
        boolean sequential = settings.keyOrder() == dev.seqgen.KeyOrder.SEQUENTIAL;
        Statement read = Statement.of(sequential ? "SELECT MAX(" + column + ") FROM " + table
                : "SELECT " + column + " FROM " + table + " WHERE " + column + " > 0" + (skip.isEmpty() ? ""
                        : " AND (" + column + " < " + skip.min() + " OR " + column + " > " + skip.max() + ")"));
        return SpannerOwnThreads.call(table, READ_KEYS_TIMEOUT, () -> {
            long highest = 0;
            try (ResultSet rows = client.singleUse().executeQuery(read)) {
                while (rows.next()) {
                    if (!rows.isNull(0)) {
                        long value = rows.getLong(0);
                        highest = Math.max(highest, sequential ? value : settings.keyOrder().counter(value));
                    }
                }
            } catch (SpannerException e) {
                throw storeError("could not read the values of column " + column + " of table " + table, e);
            }
            return OptionalLong.of(highest);
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>True only for the Cloud Spanner platforms ({@code spanner}, {@code spanner-postgresql}): entities on
     * Spanner may share this store's database; entities on another database never do.
     */
    @Override
    public boolean readsApplicationTables(String platform) {
        return platform.startsWith("spanner");
    }

    /**
     * {@inheritDoc}
     *
     * <p>One read-write transaction with {@code UPDATE ... SET next_value = @restored WHERE name = @name AND
     * next_value = @expected}, on a thread of the store's own.
     */
    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        return SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                Statement compareAndSet = sql().giveBack(table, sequence, expectedNextValue, restoredNextValue);
                Long changed = client.readWriteTransaction().run(tx -> tx.executeUpdate(compareAndSet));
                return changed != null && changed == 1;
            } catch (SpannerException e) {
                throw storeError("could not give back the unused values of sequence '" + sequence + "'", e);
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>The same guarded UPDATE as {@link #giveBack}, in the caller's {@link TransactionContext}.
     *
     * @throws SpannerException ABORTED as is, as {@link #reserveInTransaction}
     */
    @Override
    public boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        if (!(transaction instanceof TransactionContext tx)) {
            String given = transaction == null ? "null" : transaction.getClass().getName();
            throw new IllegalArgumentException("the spanner store needs a " + TransactionContext.class.getName()
                    + " as the caller's transaction, got " + given);
        }
        try {
            long changed = tx.executeUpdate(sql().giveBack(table, sequence, expectedNextValue, restoredNextValue));
            return changed == 1;
        } catch (SpannerException e) {
            if (e.getErrorCode() == ErrorCode.ABORTED) {
                throw e;
            }
            throw storeError("could not give back values of sequence '" + sequence + "' in the caller's transaction",
                    e);
        }
    }

    /*
     * Ranges kept for the fleet: as in JdbcSequenceStore. keep inserts (name, range_start, range_end) into keptTable
     * in a read-write transaction of its own; takeKept reads the lowest ranges and deletes one exactly as read, in
     * one read-write transaction (with the insert of its rest when the range is split), and hands it out only after
     * the commit. Spanner's transactions are serializable:
     * two takers that read the same range conflict, one is aborted and retried by the client, and its retry no
     * longer sees the range. A range is therefore handed to one caller at most; a crash before the commit leaves it
     * kept, after it loses it.
     */

    /**
     * {@inheritDoc}
     *
     * <p>Inserts the range into the table of kept ranges ({@link #keptTable()}) in a read-write transaction of its
     * own, on a thread of the store's own.
     */
    @Override
    public boolean keep(String sequence, long first, long end) {
        return SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                client.readWriteTransaction().run(tx -> tx.executeUpdate(sql().keep(keptTable, sequence, first, end)));
                return true;
            } catch (SpannerException e) {
                // An attempt whose commit was not confirmed may have kept the range already: the row is there.
                if (e.getErrorCode() == ErrorCode.ALREADY_EXISTS
                        && readKept(client.singleUse(), sequence, 0).contains(new ReservedRange(first, end))) {
                    return true;
                }
                throw keptError("could not keep [" + first + ", " + end + ") of sequence '" + sequence
                        + "' for the fleet", e);
            }
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the lowest kept ranges and deletes the first one whose delete changes a row, in one read-write
     * transaction, on a thread of the store's own.
     */
    @Override
    public Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return takeKept(sequence, Long.MAX_VALUE, maxValue);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the lowest kept ranges and deletes the first one whose delete changes a row; a range larger than
     * {@code count} is split, its rest inserted again as a kept range, in the same read-write transaction (a key
     * column cannot be updated in Spanner), on a thread of the store's own.
     */
    @Override
    public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        ReservedRange.requireCount(count);
        return SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                ReservedRange taken = client.readWriteTransaction().run(tx -> {
                    for (ReservedRange candidate : readKept(tx, sequence, TAKE_CANDIDATES)) {
                        if (candidate.first() > maxValue) {
                            break;
                        }
                        if (tx.executeUpdate(sql().takeKept(keptTable, sequence, candidate.first(),
                                candidate.end())) != 1) {
                            continue;
                        }
                        ReservedRange part = ReservedRange.upTo(candidate.first(),
                                Math.min(count, candidate.count()), maxValue);
                        if (part.count() == count && part.end() < candidate.end()) {
                            tx.executeUpdate(sql().keep(keptTable, sequence, part.end(), candidate.end()));
                        }
                        return part;
                    }
                    return null;
                });
                return Optional.ofNullable(taken);
            } catch (SpannerException e) {
                throw keptError("could not take a kept range of sequence '" + sequence + "'", e);
            }
        });
    }

    @Override
    public List<ReservedRange> keptRanges(String sequence) {
        return SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                return readKept(client.singleUse(), sequence, 0);
            } catch (SpannerException e) {
                throw keptError("could not read the kept ranges of sequence '" + sequence + "'", e);
            }
        });
    }

    /**
     * Returns the table the store keeps ranges for the fleet in ({@link #keep}): {@link #table()} with {@code _kept}
     * appended ({@link Identifiers#keptTableName}).
     *
     * @return the table of kept ranges
     */
    public String keptTable() {
        return keptTable;
    }

    private List<ReservedRange> readKept(ReadContext context, String sequence, int limit) {
        List<ReservedRange> ranges = new ArrayList<>();
        try (ResultSet rows = context.executeQuery(sql().keptRanges(keptTable, sequence, limit))) {
            while (rows.next()) {
                ranges.add(new ReservedRange(rows.getLong(0), rows.getLong(1)));
            }
        }
        return ranges;
    }

    private SequenceStoreException keptError(String what, SpannerException e) {
        return new SequenceStoreException(what + " in table " + keptTable + ": " + e.getMessage()
                + "; if the table is missing, create it: " + sql().ddl.createTablesSql(table).get(1), e,
                isTransient(e));
    }

    /**
     * Moves the row forward to {@code nextValue} if it lies below, in one guarded UPDATE (a read-write
     * transaction of its own, retried by the client on ABORTED), so that several JVMs starting at once agree.
     */
    @Override
    public boolean advance(String sequence, long nextValue) {
        return SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                Statement forward = sql().advance(table, sequence, nextValue);
                Long changed = client.readWriteTransaction().run(tx -> tx.executeUpdate(forward));
                return changed != null && changed == 1;
            } catch (SpannerException e) {
                throw storeError("could not move the row of sequence '" + sequence + "' forward to " + nextValue, e);
            }
        });
    }

    /**
     * The reservation, in whichever transaction it is given: the increment, and only when it changed no
     * row, the read that explains why and the increment of what is left below the maximum.
     */
    private Outcome take(TransactionContext tx, String sequence, long count, long maxValue) {
        Long end = increment(tx, sequence, count, ReservedRange.lastStart(count, maxValue));
        if (end != null) {
            return Outcome.taken(end - count, end);
        }
        Long next = readNextValue(tx, sequence);
        if (next == null) {
            return Outcome.MISSING;
        }
        if (next > maxValue) {
            return Outcome.EXHAUSTED;
        }
        long rest = ReservedRange.fitting(next, count, maxValue);
        end = increment(tx, sequence, rest, next);
        return end == null ? Outcome.CHANGED : Outcome.taken(end - rest, end);
    }

    /** The statements in the database's dialect. */
    private SpannerStatements sql() {
        return dialect.statements();
    }

    /** Runs the reservation statement; returns the row's new next_value, or null if it changed no row. */
    private Long increment(TransactionContext tx, String sequence, long count, long lastStart) {
        try (ResultSet rows = tx.executeQuery(sql().reserve(table, sequence, count, lastStart))) {
            return rows.next() ? rows.getLong(0) : null;
        }
    }

    private @Nullable Long readNextValue(ReadContext context, String sequence) {
        try (ResultSet rows = context.executeQuery(sql().select(table, sequence))) {
            return rows.next() ? rows.getLong(0) : null;
        }
    }

    /**
     * Creates the table unless it exists. A failed creation is forgiven when the table exists afterwards:
     * another process created it at the same time (Spanner runs one schema change at a time).
     */
    private void ensureTable() {
        List<String> missing = missingTables();
        if (missing.isEmpty()) {
            tableExists = true;
            return;
        }
        try {
            adminClient.updateDatabaseDdl(instanceId, databaseId, missing, null)
                    .get(CREATE_TABLE_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new SequenceStoreException("table " + table + " or " + keptTable + " was not created within "
                    + CREATE_TABLE_TIMEOUT, e, true);
        } catch (ExecutionException e) {
            if (!missingTables().isEmpty()) {
                throw new SequenceStoreException("could not create table " + table + " or " + keptTable
                        + " in database " + databaseId + ": " + e.getCause().getMessage(), e.getCause(),
                        isTransient(e.getCause()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SequenceStoreException("interrupted while creating table " + table, e, false);
        } catch (SpannerException e) {
            if (!missingTables().isEmpty()) {
                throw storeError("could not create table " + table + " or " + keptTable + " in database "
                        + databaseId, e);
            }
        }
        tableExists = true;
    }

    /**
     * The DDL of the tables that do not exist yet: the sequence table, and the table of kept ranges, which an
     * installation made before seqgen kept ranges for the fleet lacks.
     */
    private List<String> missingTables() {
        List<String> statements = sql().ddl.createTablesSql(table);
        List<String> ddl = new ArrayList<>();
        if (!tableFound(table)) {
            ddl.add(statements.get(0));
        }
        if (!tableFound(keptTable)) {
            ddl.add(statements.get(1));
        }
        return ddl;
    }

    private boolean tableFound(String name) {
        Statement lookup = sql().tableLookup(name);
        try (ResultSet rows = client.singleUse().executeQuery(lookup)) {
            return rows.next() && rows.getLong(0) > 0;
        } catch (SpannerException e) {
            throw storeError("could not look up table " + name, e);
        }
    }

    private SequenceStoreException storeError(String what, SpannerException e) {
        return new SequenceStoreException(what + " in table " + table + ": " + e.getMessage(), e, isTransient(e));
    }

    private static boolean isTransient(Throwable error) {
        return error instanceof SpannerException spanner && TRANSIENT_ERRORS.contains(spanner.getErrorCode());
    }


    /**
     * What the reservation statements found. Returned, not thrown, from the transaction callable: the
     * runner would wrap an exception, and a result with no writes commits harmlessly.
     */
    private record Outcome(Kind kind, long first, long end) {

        enum Kind { TAKEN, MISSING, EXHAUSTED, CHANGED }

        static final Outcome MISSING = new Outcome(Kind.MISSING, 0, 0);
        static final Outcome EXHAUSTED = new Outcome(Kind.EXHAUSTED, 0, 0);
        static final Outcome CHANGED = new Outcome(Kind.CHANGED, 0, 0);

        static Outcome taken(long first, long end) {
            return new Outcome(Kind.TAKEN, first, end);
        }

        ReservedRange range(SpannerSequenceStore store, String sequence, long maxValue) {
            return switch (kind) {
                case TAKEN -> new ReservedRange(first, end);
                case EXHAUSTED -> throw new SequenceExhaustedException(sequence, maxValue);
                case MISSING -> throw new SequenceStoreException("sequence '" + sequence + "' has no row in table "
                        + store.table + "; it is created by createSequence (the registry does so on first use), and"
                        + " is not recreated here because values may already have been handed out", null, false);
                case CHANGED -> throw new SequenceStoreException("the row of sequence '" + sequence + "' in table "
                        + store.table + " changed during the reservation", null, true);
            };
        }
    }

    /** Builds a {@link SpannerSequenceStore}. */
    public static final class Builder {

        private final DatabaseClient client;
        private String table = DEFAULT_TABLE;
        private @Nullable DatabaseAdminClient adminClient;
        private @Nullable String instanceId;
        private @Nullable String databaseId;
        private boolean createTable;
        private Duration operationTimeout = DEFAULT_OPERATION_TIMEOUT;
        private @Nullable Dialect dialect = Dialect.GOOGLE_STANDARD_SQL;

        private Builder(DatabaseClient client) {
            this.client = Objects.requireNonNull(client, "databaseClient");
        }

        /**
         * Sets the table that holds the sequences, optionally qualified by a named schema
         * ({@code schema.table}). Default {@value SpannerSequenceStore#DEFAULT_TABLE}.
         *
         * @param table the table name
         * @return this builder
         * @throws SequenceConfigurationException if the name is not a plain identifier (it is written into
         *     SQL text, so it can never carry SQL)
         */
        public Builder table(String table) {
            this.table = Identifiers.requireTableName("table", table);
            return this;
        }

        /**
         * Sets the admin client and the database that {@link #createTable(boolean)} creates the table in: the
         * same database the {@link DatabaseClient} reaches. Default: none.
         *
         * @param adminClient the database admin client, such as {@code spanner.getDatabaseAdminClient()}
         * @param instanceId the instance id
         * @param databaseId the database id
         * @return this builder
         * @throws NullPointerException if an argument is null
         */
        public Builder databaseAdminClient(DatabaseAdminClient adminClient, String instanceId, String databaseId) {
            this.adminClient = Objects.requireNonNull(adminClient, "adminClient");
            this.instanceId = Objects.requireNonNull(instanceId, "instanceId");
            this.databaseId = Objects.requireNonNull(databaseId, "databaseId");
            return this;
        }

        /**
         * Sets whether {@link SpannerSequenceStore#createSequence} creates the table when it does not exist.
         * Needs {@link #databaseAdminClient}. Default false: the table must exist (see the DDL in the class
         * documentation).
         *
         * @param createTable whether to create the table on demand
         * @return this builder
         */
        public Builder createTable(boolean createTable) {
            this.createTable = createTable;
            return this;
        }

        /**
         * Sets the longest one operation of the store's own may take (a reservation, a read, a give-back, the
         * creation of a row), the Spanner client's retries of aborted transactions and broken streams
         * included. When it passes, the operation fails with {@code DEADLINE_EXCEEDED}, a transient error
         * that seqgen retries within the sequence's acquire timeout; keep it at or below the acquire timeouts
         * of the sequences so that callers get their error in time. It does not bound
         * {@link SpannerSequenceStore#reserveInTransaction} (the caller's transaction is the caller's to
         * bound) nor the schema change that creates the table. Default
         * {@link SpannerSequenceStore#DEFAULT_OPERATION_TIMEOUT}, 5 seconds.
         *
         * @param operationTimeout the operation timeout
         * @return this builder
         * @throws SequenceConfigurationException if {@code operationTimeout} is null, zero or negative
         */
        public Builder operationTimeout(Duration operationTimeout) {
            if (operationTimeout == null || operationTimeout.isZero() || operationTimeout.isNegative()) {
                throw new SequenceConfigurationException("operation-timeout", operationTimeout, "a positive duration");
            }
            this.operationTimeout = operationTimeout;
            return this;
        }

        /**
         * Sets the SQL dialect of the database: {@link Dialect#GOOGLE_STANDARD_SQL} (the default) or
         * {@link Dialect#POSTGRESQL} for a PostgreSQL-dialect database ({@code RETURNING}, {@code $1} parameters,
         * PostgreSQL DDL). {@code databaseClient.getDialect()} tells which a database speaks.
         *
         * @param dialect the database's dialect
         * @return this builder
         */
        public Builder dialect(Dialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /**
         * Lets the store ask the database for its dialect ({@code DatabaseClient.getDialect()}), once, at its
         * first operation rather than when it is built.
         *
         * @return this builder
         */
        public Builder detectDialect() {
            this.dialect = null;
            return this;
        }

        /**
         * Builds the store. Nothing is read or created until the first call.
         *
         * @return the store
         * @throws IllegalStateException if {@link #createTable(boolean)} is set without
         *     {@link #databaseAdminClient}
         */
        public SpannerSequenceStore build() {
            if (createTable && adminClient == null) {
                throw new IllegalStateException("createTable(true) needs databaseAdminClient(adminClient, instanceId,"
                        + " databaseId) to create table " + table);
            }
            return new SpannerSequenceStore(this);
        }
    }
}
