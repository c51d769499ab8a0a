package dev.seqgen.spi;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceSettings;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Where sequences live: one counter row {@code (name, next_value)} per sequence, where {@code next_value}
 * is the next value nobody has been handed yet. Every operation moves {@code next_value} forward atomically;
 * only {@link #giveBack} moves it back, and only with a compare-and-set.
 *
 * <p>A store may also <em>keep</em> ranges for the fleet ({@link #keep}, {@link #takeKept}): values a stopping
 * instance reserved and never handed out, which it cannot give back to the row because another instance reserved
 * after it. Every value then has exactly one owner at any time: the row (at or above {@code next_value}), one
 * instance (a range it reserved or took), one kept range, or a caller it was handed to. {@link #giveBack},
 * {@link #keep} and {@link #takeKept} each move a range from one owner to another in one atomic change, so no
 * crash at any point hands a value out twice; a crash between two of them loses the range at most.
 *
 * <p>Implementations must be thread-safe and must make each reservation one atomic statement or one
 * retried transaction, so that seqgen can retry it after a transient error without handing out a value
 * twice. Sequence names reach the store already validated by seqgen; stores still pass them as bound
 * parameters, never as SQL text.
 */
public interface SequenceStore {

    /**
     * Returns a short lowercase name for metrics and messages, such as {@code postgresql} or
     * {@code spanner}.
     *
     * @return the store name
     */
    String name();

    /**
     * Returns where this store counts values: a row per sequence ({@link CounterKind#TABLE}, the default) or a
     * database sequence per sequence ({@link CounterKind#NATIVE_SEQUENCE}). A registry serves each sequence from
     * its store of the sequence's {@link dev.seqgen.SequenceSettings#kind() kind}, so it may hold one store of
     * each kind ({@link dev.seqgen.SequenceRegistry.Builder#store(SequenceStore)}).
     *
     * @return the counter kind
     */
    default CounterKind kind() {
        return CounterKind.TABLE;
    }

    /**
     * Makes sure the sequence's row exists, creating it (and the table, if the store is configured to)
     * with {@code next_value = initialValue} when it does not. An existing row is left as it is. Safe to
     * call concurrently from several JVMs.
     *
     * @param sequence the sequence name
     * @param initialValue the first value of a new sequence
     * @throws SequenceStoreException if the store failed
     */
    void createSequence(String sequence, long initialValue);

    /**
     * Makes sure the sequence exists, as {@link #createSequence(String, long)} with the settings' initial value.
     * A store whose sequences depend on more than the initial value (the increment of a native database sequence
     * is the block size) overrides this, and may refuse settings it cannot serve, such as a strategy it does not
     * support. The registry calls this method when it opens a sequence. The default calls
     * {@link #createSequence(String, long)}.
     *
     * @param sequence the sequence name
     * @param settings the sequence's settings
     * @throws dev.seqgen.SequenceConfigurationException if the store cannot serve these settings
     * @throws SequenceStoreException if the store failed, or holds a sequence that conflicts with the settings
     */
    default void createSequence(String sequence, SequenceSettings settings) {
        createSequence(sequence, settings.initialValue());
    }

    /**
     * Whether {@link #reserve} serves any {@code count}. A store whose reservation size is fixed per sequence
     * (a native database sequence hands out exactly its increment) returns false, and the strategies then keep
     * the block size fixed: no adaptive sizing. The default is true.
     *
     * @return whether reservations of any size are served
     */
    default boolean variableReservationSizes() {
        return true;
    }

    /**
     * Reserves up to {@code count} values in a transaction of the store's own, committed before this
     * method returns. Fewer values are returned only when the maximum value is nearer than {@code count}.
     *
     * @param sequence the sequence name
     * @param count how many values to reserve, at least 1
     * @param maxValue the largest value that may be handed out
     * @return the reserved values
     * @throws SequenceExhaustedException if no value is left at or below {@code maxValue}
     * @throws SequenceStoreException if the store failed, marked transient where a retry may succeed
     */
    ReservedRange reserve(String sequence, long count, long maxValue);

    /**
     * As {@link #reserve}, but within the caller's transaction, which commits or rolls back the increment.
     *
     * @param transaction the caller's transaction, of the type this store documents
     * @param sequence the sequence name
     * @param count how many values to reserve, at least 1
     * @param maxValue the largest value that may be handed out
     * @return the reserved values, visible to others only once the caller commits
     * @throws IllegalArgumentException if the transaction is not of the type this store needs
     * @throws SequenceExhaustedException if no value is left at or below {@code maxValue}
     * @throws SequenceStoreException if the store failed
     */
    ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue);

    /**
     * Reads the row's {@code next_value}.
     *
     * @param sequence the sequence name
     * @return the next value not handed out yet, or empty if the row does not exist
     * @throws SequenceStoreException if the store failed
     */
    OptionalLong nextValue(String sequence);

    /**
     * Gives back an unused tail: sets {@code next_value} to {@code restoredNextValue} only if it still is
     * {@code expectedNextValue}, that is, only if nobody reserved after the caller.
     *
     * @param sequence the sequence name
     * @param expectedNextValue the value the row must hold: the end of the caller's last reservation
     * @param restoredNextValue the first unused value of the caller's tail
     * @return whether the row was changed
     * @throws SequenceStoreException if the store failed
     */
    boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue);

    /**
     * As {@link #giveBack}, but within the caller's transaction, the one that reserved the tail with
     * {@link #reserveInTransaction}: while that transaction holds the row, nobody else can have reserved after
     * it, so the compare-and-set fails only if the caller itself reserved again. The default gives nothing back.
     *
     * @param transaction the caller's transaction, of the type {@link #reserveInTransaction} takes
     * @param sequence the sequence name
     * @param expectedNextValue the value the row must hold: the end of the caller's last reservation
     * @param restoredNextValue the first unused value of the caller's tail
     * @return whether the row was changed; false if this store cannot give back in the caller's transaction
     * @throws IllegalArgumentException if the transaction is not of the type this store needs
     * @throws SequenceStoreException if the store failed
     */
    default boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        return false;
    }

    /**
     * Keeps {@code [first, end)} for the fleet: values the caller reserved (or took with {@link #takeKept}) and
     * will never hand out, stored so that {@link #takeKept} hands them out again, once. Called at a graceful stop
     * for what {@link #giveBack} could not return because another instance reserved after the caller. The range is
     * kept in a transaction of the store's own; when this returns true it is committed and the caller must not use
     * any of its values any more. When it fails, the caller does not know whether it was kept, and must not use the
     * values either (a crash there loses the range, never duplicates it). The default keeps nothing.
     *
     * @param sequence the sequence name
     * @param first the first value of the range
     * @param end the value after its last one
     * @return whether the range is kept; false (the default) if this store cannot keep ranges
     * @throws SequenceStoreException if the store failed or has no place to keep ranges (a missing table)
     */
    default boolean keep(String sequence, long first, long end) {
        return false;
    }

    /**
     * Takes one kept range of the sequence (the lowest the store finds), in a transaction of the store's own that
     * removes it from the kept ranges: a range is handed to at most one caller, whatever crashes where. Values above
     * {@code maxValue} (a maximum lowered since the range was kept) are not handed out. The range is below the
     * row's {@code next_value}, so a caller that takes it as its first block and reserves later blocks from the row
     * hands its values out in increasing order. The default takes nothing.
     *
     * @param sequence the sequence name
     * @param maxValue the largest value that may be handed out
     * @return the range, or empty if none is kept (or the store keeps none)
     * @throws SequenceStoreException if the store failed or has no place to keep ranges (a missing table)
     */
    default Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return Optional.empty();
    }

    /**
     * Takes at most {@code count} values of the lowest kept range of the sequence, as {@link #takeKept(String, long)}
     * but split: a range larger than {@code count} is handed out as its first {@code count} values, and the rest,
     * {@code [first + count, end)}, stays kept, in the same transaction as the take, so the rest has one owner (the
     * kept ranges) whatever crashes where. An instance takes what its first block needs rather than a range a stopped
     * instance's largest block left, and the fleet's numbers stay compact: the lowest values go out first. The
     * default takes a whole range ({@link #takeKept(String, long)}), for stores that cannot split one.
     *
     * @param sequence the sequence name
     * @param count the most values to take, at least 1
     * @param maxValue the largest value that may be handed out
     * @return the range, at most {@code count} values (more only from a store that does not split), or empty if none
     *     is kept (or the store keeps none)
     * @throws SequenceStoreException if the store failed or has no place to keep ranges (a missing table)
     */
    default Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return takeKept(sequence, maxValue);
    }

    /**
     * Reads the ranges kept for the fleet ({@link #keep}), lowest first, for the endpoint and tests.
     *
     * @param sequence the sequence name
     * @return the kept ranges; empty (the default) if none, or if this store keeps none
     * @throws SequenceStoreException if the store failed
     */
    default List<ReservedRange> keptRanges(String sequence) {
        return List.of();
    }

    /**
     * Moves the row forward: sets {@code next_value} to {@code nextValue} only if it is lower, never
     * backwards, atomically, so that several callers racing agree on the highest value asked for.
     *
     * @param sequence the sequence name
     * @param nextValue the lowest {@code next_value} the row must have afterwards
     * @return whether the row was changed; false also if the row does not exist
     * @throws UnsupportedOperationException if this store cannot move a row (the default)
     * @throws SequenceStoreException if the store failed
     */
    default boolean advance(String sequence, long nextValue) {
        throw new UnsupportedOperationException(name() + " store cannot move a sequence row forward");
    }

    /**
     * Reads the highest counter the values of an application's column already hold, so that a sequence serving
     * that column starts above them (adoption of existing rows). For {@link dev.seqgen.KeyOrder#SEQUENTIAL
     * sequential} settings that is the column's highest value; for a key order that maps counters to keys, the
     * highest counter whose key the column holds outside the {@linkplain SequenceSettings#skipRange() skip range}.
     * Runs on the store's own connection or client, in a transaction of its own that only reads, never in a
     * caller's. Frameworks call it only for tables the store can reach ({@link #readsApplicationTables}).
     *
     * @param table the table, qualified and quoted as the database needs it
     * @param column the column, quoted as the database needs it
     * @param settings the sequence's settings: its key order and skip range
     * @return the highest counter (0 for an empty table), or empty (the default) if this store cannot read the
     *     application's tables: its rows are elsewhere
     * @throws SequenceStoreException if the table could not be read (it may not exist yet: a schema tool creates
     *     it later)
     */
    default OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        return OptionalLong.empty();
    }

    /**
     * Reads the highest value a column holds in the rows of one series: those whose columns match every condition
     * of {@code where} (a tenant's, a company's, a year's rows), so that the series starts above them. As
     * {@link #highestCounter(String, String, SequenceSettings)} otherwise; sequential settings only (a series is
     * numbered for people to read). The conditions' values are bound as parameters, never written into a statement.
     *
     * @param table the table, qualified and quoted as the database needs it
     * @param column the column, quoted as the database needs it
     * @param settings the sequence's settings
     * @param where the conditions the rows of the series meet, all of them
     * @return the highest value (0 when the series has no rows yet), or empty (the default) if this store cannot
     *     read the application's tables
     * @throws SequenceStoreException if the table could not be read
     */
    default OptionalLong highestCounter(String table, String column, SequenceSettings settings, List<Where> where) {
        return where.isEmpty() ? highestCounter(table, column, settings) : OptionalLong.empty();
    }

    /**
     * Reads the highest counter among the formatted numbers a text column holds in the rows of one series
     * ({@code INV-2026-000041} holds 41): every value of those rows is read once and given to {@code counterOf},
     * which returns its counter, or a negative number for a value that is not a number of the series. As
     * {@link #highestCounter(String, String, SequenceSettings, List)} otherwise.
     *
     * @param table the table, qualified and quoted as the database needs it
     * @param column the text column, quoted as the database needs it
     * @param where the conditions the rows of the series meet, all of them; none for every row
     * @param counterOf reads a value's counter
     * @return the highest counter (0 when no value is a number of the series), or empty (the default) if this store
     *     cannot read the application's tables
     * @throws SequenceStoreException if the table could not be read
     */
    default OptionalLong highestFormatted(String table, String column, List<Where> where,
            ToLongFunction<String> counterOf) {
        return OptionalLong.empty();
    }

    /**
     * A condition on a column of an application's table: equal to {@code value} when {@code until} is null,
     * otherwise from {@code value} (included) to {@code until} (excluded), as for the dates of one year.
     *
     * @param column the column, quoted as the database needs it
     * @param value the value, or the start of the range: a {@code String}, a number, a {@code java.time} date or
     *     date-time, or any value the database's JDBC driver binds with {@code setObject}
     * @param until the end of the range, excluded, or null for equality
     */
    record Where(String column, Object value, @Nullable Object until) {

        /**
         * Checks the condition.
         *
         * @throws NullPointerException if the column or the value is null
         */
        public Where {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * Whether {@link #highestCounter} can read the tables of an application whose entities are in a database of
     * the given platform: false when this store's rows are in a database of another kind, which cannot hold those
     * tables (a Cloud Spanner store beside entities on PostgreSQL or H2). A framework then adopts nothing and says
     * so, instead of reading a table the store's database does not have. A store reading through the application's
     * own database (seqgen's JDBC stores over its {@code DataSource}) answers true for every platform, as does the
     * default.
     *
     * @param platform the database of the application's tables, as seqgen's schema scripts name it
     *     ({@code postgresql}, {@code mariadb}, {@code h2}, {@code hsqldb}, {@code spanner},
     *     {@code spanner-postgresql}), or the framework's lowercase name of another database
     * @return whether those tables may be in this store's database
     */
    default boolean readsApplicationTables(String platform) {
        return true;
    }

    /**
     * Returns the type of the caller's transaction that {@link #reserveInTransaction} takes, or null if this store
     * takes none (it cannot serve SYNC). Frameworks check it before they hand their own transactions over: the
     * Hibernate generator serves SYNC only from a store that takes the session's {@code java.sql.Connection}.
     *
     * @return the transaction type, or null (the default)
     */
    default @Nullable Class<?> transactionType() {
        return null;
    }

    /**
     * Returns the SQL table this store keeps its rows in, when that is a table of a relational database the
     * application's schema tools can see: Hibernate's schema export includes it, and a missing one is reported
     * with the script that creates it.
     *
     * @return the table, or empty (the default) when the rows are elsewhere
     */
    default Optional<SqlTable> sqlTable() {
        return Optional.empty();
    }

    /**
     * The SQL table of a store.
     *
     * @param name the table name, optionally schema-qualified
     * @param platform the database as seqgen's schema scripts name it: {@code postgresql}, {@code mariadb},
     *     {@code h2}, {@code spanner} or {@code spanner-postgresql}
     */
    record SqlTable(String name, String platform) {
    }
}
