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
import dev.seqgen.KeyOrder;
import dev.seqgen.KeyRange;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceSettings;
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
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SequenceStore} on Cloud Spanner ({@link Builder#dialect}) through a {@link DatabaseClient}, in the tables of
 * {@code JdbcDialect.createTablesSql} for {@code SPANNER} or {@code SPANNER_POSTGRESQL}. {@link #reserveInTransaction}
 * runs in the caller's {@link TransactionContext}, every other operation on a store thread within
 * {@link Builder#operationTimeout(Duration)}. {@code ABORTED}, {@code UNAVAILABLE}, {@code DEADLINE_EXCEEDED} and
 * {@code RESOURCE_EXHAUSTED} are transient. Thread-safe.
 */
public final class SpannerSequenceStore implements SequenceStore {

    /** The default table name. */
    public static final String DEFAULT_TABLE = "seqgen_sequences";

    /** The default operation timeout: a sequence's default acquire timeout. */
    public static final Duration DEFAULT_OPERATION_TIMEOUT = Duration.ofSeconds(5);

    /** Of table creation and of reading an application's keys. */
    private static final Duration SLOW_OPERATION_TIMEOUT = Duration.ofMinutes(5);
    /** Kept ranges read per take, lowest first. */
    private static final int TAKE_CANDIDATES = 8;
    private static final Set<ErrorCode> TRANSIENT_ERRORS = EnumSet.of(ErrorCode.ABORTED, ErrorCode.UNAVAILABLE,
            ErrorCode.DEADLINE_EXCEEDED, ErrorCode.RESOURCE_EXHAUSTED);

    private final DatabaseClient client;
    private final String table;
    private final String keptTable;
    private final @Nullable Admin admin;
    private final Duration operationTimeout;
    /** The database's statements; null until the first operation asks a store built to detect them. */
    private volatile @Nullable SpannerStatements statements;
    private volatile boolean tablesReady;

    private SpannerSequenceStore(Builder builder) {
        this.client = builder.client;
        this.table = builder.table;
        this.keptTable = Identifiers.keptTableName(builder.table);
        this.admin = builder.admin;
        this.tablesReady = !builder.createTable;
        this.operationTimeout = builder.operationTimeout;
        this.statements = builder.dialect == null ? null : SpannerStatements.of(builder.dialect);
    }

    /** {@return a builder for a store over the database of {@code databaseClient}} */
    public static Builder builder(DatabaseClient databaseClient) {
        return new Builder(databaseClient);
    }

    /** {@return {@code spanner}} */
    @Override
    public String name() {
        return "spanner";
    }

    @Override
    public String toString() {
        return "SpannerSequenceStore[" + (admin != null ? "database " + admin.databaseId() + ", " : "") + "table "
                + table + "]";
    }

    /** {@return the name of the table that holds the sequences} */
    public String table() {
        return table;
    }

    @Override
    public void createSequence(String sequence, long initialValue) {
        if (!tablesReady) {
            tablesReady = SpannerOwnThreads.call(table, SLOW_OPERATION_TIMEOUT, this::createMissingTables);
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

    /** {@inheritDoc} May be called inside a caller's Spanner transaction (it runs on a store thread). */
    @Override
    public ReservedRange reserve(String sequence, long count, long maxValue) {
        ReservedRange.requireCount(count);
        return own(() -> client.readWriteTransaction().run(tx -> take(tx, sequence, count, maxValue)),
                e -> storeError("could not reserve " + count + " value(s) of sequence '" + sequence + "'", e)).get();
    }

    /** {@return the client library's {@link TransactionContext}, in which SYNC increments the row} */
    @Override
    public Class<?> transactionType() {
        return TransactionContext.class;
    }

    /** {@inheritDoc} On the caller's thread; rethrows Spanner's {@code AbortedException} (retry the transaction). */
    @Override
    public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
        return inCallers(transaction, tx -> take(tx, sequence, ReservedRange.requireCount(count), maxValue),
                "could not reserve " + count + " value(s) of sequence '" + sequence + "'").get();
    }

    @Override
    public OptionalLong nextValue(String sequence) {
        Long next = own(() -> readNextValue(client.singleUse(), sequence),
                e -> storeError("could not read sequence '" + sequence + "'", e));
        return next == null ? OptionalLong.empty() : OptionalLong.of(next);
    }

    @Override
    public OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        KeyRange skip = settings.skipRange();
        boolean sequential = settings.keyOrder() == KeyOrder.SEQUENTIAL;
        Statement read = Statement.of(sequential ? "SELECT MAX(" + column + ") FROM " + table
                : "SELECT " + column + " FROM " + table + " WHERE " + column + " > 0" + (skip.isEmpty() ? ""
                        : " AND (" + column + " < " + skip.min() + " OR " + column + " > " + skip.max() + ")"));
        return SpannerOwnThreads.call(table, SLOW_OPERATION_TIMEOUT, () -> {
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

    /** {@inheritDoc} True only for the Cloud Spanner platforms ({@code spanner}, {@code spanner-postgresql}). */
    @Override
    public boolean readsApplicationTables(String platform) {
        return platform.startsWith("spanner");
    }

    @Override
    public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
        return own(() -> updatesOne(sql().giveBack(table, sequence, expectedNextValue, restoredNextValue)),
                e -> storeError("could not give back the unused values of sequence '" + sequence + "'", e));
    }

    /** {@inheritDoc} Rethrows ABORTED as is. */
    @Override
    public boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        return inCallers(transaction, tx -> tx.executeUpdate(sql().giveBack(table, sequence, expectedNextValue,
                restoredNextValue)) == 1, "could not give back values of sequence '" + sequence + "'");
    }

    /** Runs the operation in the caller's transaction; ABORTED is rethrown as is, for the caller to retry. */
    private <T> T inCallers(@Nullable Object transaction, Function<TransactionContext, T> operation, String what) {
        if (!(transaction instanceof TransactionContext tx)) {
            throw new IllegalArgumentException("the spanner store needs a " + TransactionContext.class.getName()
                    + " as the caller's transaction, got "
                    + (transaction == null ? "null" : transaction.getClass().getName()));
        }
        try {
            return operation.apply(tx);
        } catch (SpannerException e) {
            if (e.getErrorCode() == ErrorCode.ABORTED) {
                throw e;
            }
            throw storeError(what + " in the caller's transaction", e);
        }
    }

    /** {@inheritDoc} Inserts the range into the table {@link #table()} + {@code _kept}, in a transaction of its own. */
    @Override
    public boolean keep(String sequence, long first, long end) {
        return SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                client.readWriteTransaction().run(tx -> tx.executeUpdate(sql().keep(keptTable, sequence, first, end)));
                return true;
            } catch (SpannerException e) {
                // An unconfirmed earlier commit may have kept it already.
                if (e.getErrorCode() == ErrorCode.ALREADY_EXISTS
                        && readKept(client.singleUse(), sequence, first, 1).contains(new ReservedRange(first, end))) {
                    return true;
                }
                throw keptError("could not keep [" + first + ", " + end + ") of sequence '" + sequence
                        + "' for the fleet", e);
            }
        });
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return takeKept(sequence, Long.MAX_VALUE, maxValue);
    }

    @Override
    public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return takeKept(sequence, Long.MIN_VALUE, count, maxValue);
    }

    /** {@inheritDoc} Deletes the range and inserts back the rest of a split one, in one transaction. */
    @Override
    public Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
        ReservedRange.requireCount(count);
        return own(() -> Optional.ofNullable(client.readWriteTransaction()
                .run(tx -> takeKept(tx, sequence, from, count, maxValue))),
                e -> keptError("could not take a kept range of sequence '" + sequence + "'", e));
    }

    /** Deletes the lowest fitting candidate from {@code from} and keeps the rest of a split one; null if none. */
    private @Nullable ReservedRange takeKept(TransactionContext tx, String sequence, long from, long count,
            long maxValue) {
        for (ReservedRange candidate : readKept(tx, sequence, from, TAKE_CANDIDATES)) {
            if (candidate.first() > maxValue) {
                break;
            }
            if (tx.executeUpdate(sql().takeKept(keptTable, sequence, candidate.first(), candidate.end())) != 1) {
                continue;
            }
            ReservedRange part = ReservedRange.upTo(candidate.first(), Math.min(count, candidate.count()), maxValue);
            if (part.count() == count && part.end() < candidate.end()) {
                tx.executeUpdate(sql().keep(keptTable, sequence, part.end(), candidate.end()));
            }
            return part;
        }
        return null;
    }

    @Override
    public List<ReservedRange> keptRanges(String sequence) {
        return own(() -> readKept(client.singleUse(), sequence, Long.MIN_VALUE, 0),
                e -> keptError("could not read the kept ranges of sequence '" + sequence + "'", e));
    }

    private List<ReservedRange> readKept(ReadContext context, String sequence, long from, int limit) {
        List<ReservedRange> ranges = new ArrayList<>();
        try (ResultSet rows = context.executeQuery(sql().keptRanges(keptTable, sequence, from, limit))) {
            while (rows.next()) {
                ranges.add(new ReservedRange(rows.getLong(0), rows.getLong(1)));
            }
        }
        return ranges;
    }

    private SequenceStoreException keptError(String what, SpannerException e) {
        return new SequenceStoreException(what + " in table " + keptTable + ": " + e.getMessage() + "; if the table is"
                + " missing, create it: " + sql().ddl.createTablesSql(table).get(1), e, isTransient(e));
    }

    @Override
    public boolean advance(String sequence, long nextValue) {
        return own(() -> updatesOne(sql().advance(table, sequence, nextValue)),
                e -> storeError("could not move the row of sequence '" + sequence + "' forward to " + nextValue, e));
    }

    /** Runs the operation on a store thread within the operation timeout, mapping Spanner's errors. */
    private <T extends @Nullable Object> T own(Supplier<T> operation,
            Function<SpannerException, SequenceStoreException> error) {
        return SpannerOwnThreads.call(table, operationTimeout, () -> {
            try {
                return operation.get();
            } catch (SpannerException e) {
                throw error.apply(e);
            }
        });
    }

    private boolean updatesOne(Statement statement) {
        Long changed = client.readWriteTransaction().run(tx -> tx.executeUpdate(statement));
        return changed != null && changed == 1;
    }

    /**
     * The increment in {@code tx}, else the read and what is left below max. No side effect outside {@code tx}: the
     * runner re-runs it after ABORTED (docs/design.md#spanner-store). Failures are returned: the runner wraps throws.
     */
    private Supplier<ReservedRange> take(TransactionContext tx, String sequence, long count, long maxValue) {
        Long end = firstLong(tx, sql().reserve(table, sequence, count, ReservedRange.lastStart(count, maxValue)));
        if (end != null) {
            return () -> new ReservedRange(end - count, end);
        }
        Long next = readNextValue(tx, sequence);
        if (next == null || next > maxValue) {
            return () -> {
                throw next == null ? new SequenceStoreException("sequence '" + sequence + "' has no row in table "
                        + table + "; it is created by createSequence (the registry does so on first use), and is not"
                        + " recreated here because values may already have been handed out", null, false)
                        : new SequenceExhaustedException(sequence, maxValue);
            };
        }
        long rest = ReservedRange.fitting(next, count, maxValue);
        Long restEnd = firstLong(tx, sql().reserve(table, sequence, rest, next));
        return () -> {
            if (restEnd == null) {
                throw new SequenceStoreException("the row of sequence '" + sequence + "' in table " + table
                        + " changed during the reservation", null, true);
            }
            return new ReservedRange(restEnd - rest, restEnd);
        };
    }

    /** A failed question for the dialect is asked again by the next operation. */
    private SpannerStatements sql() {
        if (statements == null) {
            statements = SpannerStatements.of(client.getDialect());
        }
        return statements;
    }

    private @Nullable Long readNextValue(ReadContext context, String sequence) {
        return firstLong(context, sql().select(table, sequence));
    }

    private static @Nullable Long firstLong(ReadContext context, Statement statement) {
        try (ResultSet rows = context.executeQuery(statement)) {
            return rows.next() ? rows.getLong(0) : null;
        }
    }

    /** {@return true once both tables exist}; a failed creation is forgiven if they exist afterwards (a race). */
    private boolean createMissingTables() {
        List<String> missing = missingTables();
        if (missing.isEmpty()) {
            return true;
        }
        try {
            admin.client().updateDatabaseDdl(admin.instanceId(), admin.databaseId(), missing, null)
                    .get(SLOW_OPERATION_TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new SequenceStoreException("table " + table + " or " + keptTable + " was not created within "
                    + SLOW_OPERATION_TIMEOUT, e, true);
        } catch (ExecutionException | SpannerException e) {
            Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
            if (!missingTables().isEmpty()) {
                throw new SequenceStoreException("could not create table " + table + " or " + keptTable
                        + " in database " + admin.databaseId() + ": " + cause.getMessage(), cause, isTransient(cause));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SequenceStoreException("interrupted while creating table " + table, e, false);
        }
        return true;
    }

    /** The DDL of the tables that do not exist yet. */
    private List<String> missingTables() {
        List<String> ddl = sql().ddl.createTablesSql(table);
        return IntStream.range(0, 2).filter(i -> !tableFound(i == 0 ? table : keptTable)).mapToObj(ddl::get).toList();
    }

    private boolean tableFound(String name) {
        try {
            Long count = firstLong(client.singleUse(), sql().tableLookup(name));
            return count != null && count > 0;
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

    private record Admin(DatabaseAdminClient client, String instanceId, String databaseId) {
    }

    /** Builds a {@link SpannerSequenceStore}. */
    public static final class Builder {

        private final DatabaseClient client;
        private String table = DEFAULT_TABLE;
        private @Nullable Admin admin;
        private boolean createTable;
        private Duration operationTimeout = DEFAULT_OPERATION_TIMEOUT;
        private @Nullable Dialect dialect = Dialect.GOOGLE_STANDARD_SQL;

        private Builder(DatabaseClient client) {
            this.client = Objects.requireNonNull(client, "databaseClient");
        }

        /** Sets the table, optionally {@code schema.table} (default {@value SpannerSequenceStore#DEFAULT_TABLE}). */
        public Builder table(String table) {
            this.table = Identifiers.requireTableName("table", table);
            return this;
        }

        /** Sets the admin client and the database (the client's) that {@link #createTable(boolean)} uses. */
        public Builder databaseAdminClient(DatabaseAdminClient adminClient, String instanceId, String databaseId) {
            this.admin = new Admin(Objects.requireNonNull(adminClient, "adminClient"),
                    Objects.requireNonNull(instanceId, "instanceId"), Objects.requireNonNull(databaseId, "databaseId"));
            return this;
        }

        /** Sets whether missing tables are created (needs {@link #databaseAdminClient}). Default false. */
        public Builder createTable(boolean createTable) {
            this.createTable = createTable;
            return this;
        }

        /**
         * Sets the longest one own operation may take, retries included (then {@code DEADLINE_EXCEEDED}, transient), a
         * positive duration; not for {@code reserveInTransaction} nor table creation. Default 5 seconds.
         */
        public Builder operationTimeout(Duration operationTimeout) {
            if (operationTimeout == null || operationTimeout.isZero() || operationTimeout.isNegative()) {
                throw new SequenceConfigurationException("operation-timeout", operationTimeout, "a positive duration");
            }
            this.operationTimeout = operationTimeout;
            return this;
        }

        /** Sets the database's dialect: {@link Dialect#GOOGLE_STANDARD_SQL} (default) or {@link Dialect#POSTGRESQL}. */
        public Builder dialect(Dialect dialect) {
            this.dialect = Objects.requireNonNull(dialect, "dialect");
            return this;
        }

        /** Lets the store ask the database for its dialect once, at its first operation. */
        public Builder detectDialect() {
            this.dialect = null;
            return this;
        }

        /** Builds the store, which reads nothing until its first call; createTable needs a databaseAdminClient. */
        public SpannerSequenceStore build() {
            if (createTable && admin == null) {
                throw new IllegalStateException("createTable(true) needs databaseAdminClient(adminClient, instanceId,"
                        + " databaseId) to create table " + table);
            }
            return new SpannerSequenceStore(this);
        }
    }
}
