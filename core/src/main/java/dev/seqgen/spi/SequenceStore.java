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
 * instance could not give back to the row, handed out again as other instances' blocks. Every value has one owner at
 * a time (the row, an instance, a kept range, or a caller); {@link #giveBack}, {@link #keep} and {@link #takeKept}
 * each move a range between owners in one atomic change, so a crash loses a range at most and never hands a value
 * out twice.
 *
 * <p>Implementations must be thread-safe, make each reservation one atomic statement or one retried transaction,
 * and bind sequence names as parameters, never as SQL text.
 */
public interface SequenceStore {

    /** {@return a short lowercase name for metrics and messages, such as {@code postgresql}} */
    String name();

    /**
     * {@return where this store counts values: a row per sequence ({@link CounterKind#TABLE}, the default) or a
     * database sequence ({@link CounterKind#NATIVE_SEQUENCE})}; a registry may hold one store of each kind.
     */
    default CounterKind kind() {
        return CounterKind.TABLE;
    }

    /**
     * Creates the sequence's row (and the table, if configured to) with {@code next_value = initialValue} unless it
     * exists; an existing row is left as it is. Safe to call concurrently from several JVMs.
     *
     * @throws SequenceStoreException if the store failed
     */
    void createSequence(String sequence, long initialValue);

    /**
     * Makes sure the sequence exists, called by the registry when it opens one. The default is
     * {@link #createSequence(String, long)} with the initial value; a store whose sequences depend on more (a native
     * sequence's increment) overrides it and may refuse settings it cannot serve.
     *
     * @throws dev.seqgen.SequenceConfigurationException if the store cannot serve these settings
     * @throws SequenceStoreException if the store failed, or holds a sequence that conflicts with the settings
     */
    default void createSequence(String sequence, SequenceSettings settings) {
        createSequence(sequence, settings.initialValue());
    }

    /**
     * {@return whether {@link #reserve} serves any {@code count}} (default true); false keeps block sizes fixed (a
     * native sequence hands out exactly its increment).
     */
    default boolean variableReservationSizes() {
        return true;
    }

    /**
     * Reserves up to {@code count} values in a transaction of the store's own, committed before this
     * method returns. Fewer values are returned only when the maximum value is nearer than {@code count}.
     *
     * @return the reserved values
     * @throws SequenceExhaustedException if no value is left at or below {@code maxValue}
     * @throws SequenceStoreException if the store failed, marked transient where a retry may succeed
     */
    ReservedRange reserve(String sequence, long count, long maxValue);

    /** How a reservation's size is chosen while the row is held, from the queue at the row ({@link #reserveSized}). */
    @FunctionalInterface
    interface Sizing {

        /**
         * @param waitedNanos how long the reservation waited for the row
         * @param ahead the transactions queued for the row when the reservation asked for it, or -1 if unknown
         * @param behind the transactions queued behind it once it holds the row, or -1 if unknown
         * @return how many values to reserve, at least 1
         */
        long size(long waitedNanos, int ahead, int behind);
    }

    /**
     * As {@link #reserve}, but the count is chosen by {@code sizing} while the row is held, from the queue the store
     * sees at the row (a fleet that starts at once). The default cannot see the queue: it reserves
     * {@code sizing.size(0, -1, -1)}.
     *
     * @param sequence the sequence name
     * @param sizing chooses the count
     * @param maxValue the largest value that may be handed out
     * @return the reserved values
     * @throws SequenceExhaustedException if no value is left at or below {@code maxValue}
     * @throws SequenceStoreException if the store failed, marked transient where a retry may succeed
     */
    default ReservedRange reserveSized(String sequence, Sizing sizing, long maxValue) {
        return reserve(sequence, sizing.size(0, -1, -1), maxValue);
    }

    /**
     * {@return the transactions queued for the sequence's row now, as {@link #reserveSized} sees them, or -1 if the
     * store cannot tell} The warm-up asks after a block sized by the queue, to see whether the fleet is still arriving.
     * The default cannot tell.
     *
     * @param sequence the sequence name
     */
    default int queuedAt(String sequence) {
        return -1;
    }

    /**
     * As {@link #reserve}, but within the caller's transaction, which commits or rolls back the increment.
     *
     * @return the reserved values, visible to others only once the caller commits
     * @throws IllegalArgumentException if the transaction is not of the type this store needs
     * @throws SequenceExhaustedException if no value is left at or below {@code maxValue}
     * @throws SequenceStoreException if the store failed
     */
    ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue);

    /**
     * {@return the row's {@code next_value}, the next value not handed out yet, or empty if the row does not exist}
     *
     * @throws SequenceStoreException if the store failed
     */
    OptionalLong nextValue(String sequence);

    /**
     * Gives back an unused tail: sets {@code next_value} to {@code restoredNextValue} only if it still is
     * {@code expectedNextValue}, that is, only if nobody reserved after the caller.
     *
     * @return whether the row was changed
     * @throws SequenceStoreException if the store failed
     */
    boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue);

    /**
     * As {@link #giveBack}, within the caller's transaction that reserved the tail with {@link #reserveInTransaction}
     * (which holds the row). The default gives nothing back.
     *
     * @return whether the row was changed; false if this store cannot give back in the caller's transaction
     * @throws IllegalArgumentException if the transaction is not of the type this store needs
     * @throws SequenceStoreException if the store failed
     */
    default boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        return false;
    }

    /**
     * Keeps {@code [first, end)}, values the caller holds and will never hand out, for {@link #takeKept} to hand out
     * once: at a graceful stop, for what {@link #giveBack} could not return. Committed in a transaction of its own
     * when this returns true; after true or a failure the caller must not use the values. The default keeps nothing.
     *
     * @return whether the range is kept; false (the default) if this store cannot keep ranges
     * @throws SequenceStoreException if the store failed or has no place to keep ranges (a missing table)
     */
    default boolean keep(String sequence, long first, long end) {
        return false;
    }

    /**
     * Takes the lowest kept range, removing it in a transaction of the store's own, so it goes to one caller at most;
     * nothing above {@code maxValue} is handed out. The range lies below the row's {@code next_value}. The default
     * takes nothing.
     *
     * @return the range, or empty if none is kept (or the store keeps none)
     * @throws SequenceStoreException if the store failed or has no place to keep ranges (a missing table)
     */
    default Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return Optional.empty();
    }

    /**
     * As {@link #takeKept(String, long)}, but a range larger than {@code count} is split in the same transaction: its
     * first {@code count} values are taken, the rest stays kept. The default takes a whole range.
     */
    default Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return takeKept(sequence, maxValue);
    }

    /**
     * As {@link #takeKept(String, long, long)}, but only from the ranges starting at or above {@code from} (a running
     * instance passes the value above everything it reserved, so its blocks ascend). The default takes nothing: a
     * store that cannot choose by position hands kept ranges out as first blocks only.
     */
    default Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
        return Optional.empty();
    }

    /**
     * {@return the ranges kept for the fleet ({@link #keep}), lowest first; empty (the default) if none or if this
     * store keeps none}
     *
     * @throws SequenceStoreException if the store failed
     */
    default List<ReservedRange> keptRanges(String sequence) {
        return List.of();
    }

    /**
     * Sets {@code next_value} to {@code nextValue} only if it is lower, atomically, so racing callers agree.
     *
     * @return whether the row was changed; false also if the row does not exist
     * @throws UnsupportedOperationException if this store cannot move a row (the default)
     * @throws SequenceStoreException if the store failed
     */
    default boolean advance(String sequence, long nextValue) {
        throw new UnsupportedOperationException(name() + " store cannot move a sequence row forward");
    }

    /**
     * Reads the highest counter an application's column already holds, so a sequence serving it starts above: the
     * highest value for sequential keys, else the highest counter whose key lies outside the
     * {@linkplain SequenceSettings#skipRange() skip range}. Reads in a transaction of the store's own, never a
     * caller's; called only where {@link #readsApplicationTables} is true.
     *
     * @return the highest counter (0 for an empty table), or empty (the default) if this store cannot read the
     *     application's tables: its rows are elsewhere
     * @throws SequenceStoreException if the table could not be read (it may not exist yet: a schema tool creates
     *     it later)
     */
    default OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        return OptionalLong.empty();
    }

    /**
     * As {@link #highestCounter(String, String, SequenceSettings)}, over the rows that match every condition of
     * {@code where} (one series); sequential settings only. Values are bound as parameters.
     *
     * @return the highest value (0 when the series has no rows yet), or empty (the default) if this store cannot
     *     read the application's tables
     * @throws SequenceStoreException if the table could not be read
     */
    default OptionalLong highestCounter(String table, String column, SequenceSettings settings, List<Where> where) {
        return where.isEmpty() ? highestCounter(table, column, settings) : OptionalLong.empty();
    }

    /**
     * Reads the highest counter among formatted numbers in a text column of one series ({@code INV-2026-000041} holds
     * 41), each value given once to {@code counterOf} (negative for a value not of the series).
     *
     * @param where the conditions the rows of the series meet; none for every row
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
     * @param value the value, or the start of the range: a {@code String}, a number, a {@code java.time} date or
     *     date-time, or any value the database's JDBC driver binds with {@code setObject}
     * @param until the end of the range, excluded, or null for equality
     */
    record Where(String column, Object value, @Nullable Object until) {

        public Where {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * Whether {@link #highestCounter} can read an application's tables on the given platform: false when this store's
     * database is of another kind (a Spanner store beside entities on PostgreSQL). The default is true.
     *
     * @param platform the database of the application's tables, as seqgen's schema scripts name it
     *     ({@code postgresql}, {@code mariadb}, {@code h2}, {@code hsqldb}, {@code spanner},
     *     {@code spanner-postgresql}), or the framework's lowercase name of another database
     */
    default boolean readsApplicationTables(String platform) {
        return true;
    }

    /**
     * {@return the type of the caller's transaction {@link #reserveInTransaction} takes, or null (the default) if none (no SYNC)}
     */
    default @Nullable Class<?> transactionType() {
        return null;
    }

    /**
     * {@return the SQL table of the rows when the application's schema tools can see it (Hibernate exports it), or empty (the default)}
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
