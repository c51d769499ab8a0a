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
 * Where sequences live: a counter row {@code (name, next_value)} per sequence, {@code next_value} being the next value
 * nobody has been handed yet, moved forward atomically and back only by {@link #giveBack}'s compare-and-set. Kept
 * ranges ({@link #keep}, {@link #takeKept}) change owners atomically: see docs/design.md#kept-ranges.
 *
 * <p>Implementations must be thread-safe, make each reservation one atomic statement or one retried transaction, and
 * bind sequence names as parameters. A failing store throws {@link SequenceStoreException}, transient if retryable.
 */
public interface SequenceStore {

    /** {@return a short lowercase name for metrics and messages, such as {@code postgresql}} */
    String name();

    /** {@return where this store counts values: {@link CounterKind#TABLE} (the default) or a native sequence} */
    default CounterKind kind() {
        return CounterKind.TABLE;
    }

    /**
     * Creates the sequence's row (and the table, if configured to) with {@code next_value = initialValue} unless it
     * exists. Safe to call concurrently from several JVMs.
     */
    void createSequence(String sequence, long initialValue);

    /**
     * Makes sure the sequence exists, when the registry opens it; the default is {@link #createSequence(String, long)}.
     *
     * @throws dev.seqgen.SequenceConfigurationException if the store cannot serve these settings
     * @throws SequenceStoreException if the store failed, or holds a sequence that conflicts with the settings
     */
    default void createSequence(String sequence, SequenceSettings settings) {
        createSequence(sequence, settings.initialValue());
    }

    /** {@return whether {@link #reserve} serves any {@code count}} (default true); false keeps block sizes fixed. */
    default boolean variableReservationSizes() {
        return true;
    }

    /**
     * Reserves up to {@code count} values in a transaction of the store's own, committed before this method returns;
     * fewer only when {@code maxValue} is nearer than {@code count}.
     *
     * @throws SequenceExhaustedException if no value is left at or below {@code maxValue}
     */
    ReservedRange reserve(String sequence, long count, long maxValue);

    /** How a reservation's size is chosen while the row is held, from the queue at the row ({@link #reserveSized}). */
    @FunctionalInterface
    interface Sizing {

        /**
         * {@return how many values to reserve, at least 1}, from how long the reservation waited for the row and the
         * transactions queued {@code ahead} of it when it asked and {@code behind} it once it holds it (-1 if unknown).
         */
        long size(long waitedNanos, int ahead, int behind);
    }

    /**
     * As {@link #reserve}, with the count chosen by {@code sizing} while the row is held, from the queue the store sees
     * at the row. The default cannot see the queue: it reserves {@code sizing.size(0, -1, -1)}.
     */
    default ReservedRange reserveSized(String sequence, Sizing sizing, long maxValue) {
        return reserve(sequence, sizing.size(0, -1, -1), maxValue);
    }

    /** {@return the transactions queued at the sequence row now, as {@link #reserveSized} sees them; -1 if unknown} */
    default int queuedAt(String sequence) {
        return -1;
    }

    /**
     * As {@link #reserve}, within the caller's transaction, which commits or rolls back the increment.
     *
     * @throws IllegalArgumentException if the transaction is not of the type this store needs
     */
    ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue);

    /** {@return the row's {@code next_value}, the next value not handed out yet, or empty if the row does not exist} */
    OptionalLong nextValue(String sequence);

    /**
     * {@return whether the row was changed}: gives back an unused tail, setting {@code next_value} to
     * {@code restoredNextValue} only if it still is {@code expectedNextValue} (nobody reserved after the caller).
     */
    boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue);

    /**
     * As {@link #giveBack}, in the caller's transaction that reserved the tail; the default gives nothing back (false).
     *
     * @throws IllegalArgumentException if the transaction is not of the type this store needs
     */
    default boolean giveBackInTransaction(Object transaction, String sequence, long expectedNextValue,
            long restoredNextValue) {
        return false;
    }

    /**
     * Keeps {@code [first, end)}, values the caller will never hand out, for {@link #takeKept}, in a transaction of its
     * own; after true or a failure the caller must not use them.
     *
     * @return whether kept; false (the default) if this store cannot keep ranges
     * @throws SequenceStoreException also if the store has no place to keep ranges (a missing table)
     */
    default boolean keep(String sequence, long first, long end) {
        return false;
    }

    /**
     * Takes the lowest kept range (below the row's {@code next_value}, cut at {@code maxValue}), removing it in a
     * transaction of the store's own, so it goes to one caller at most; empty if none is kept (always, by default).
     */
    default Optional<ReservedRange> takeKept(String sequence, long maxValue) {
        return Optional.empty();
    }

    /** As {@link #takeKept(String, long)}, taking the first {@code count} values of a larger range (default: all). */
    default Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
        return takeKept(sequence, maxValue);
    }

    /** As {@link #takeKept(String, long, long)}, from the ranges starting at or above {@code from}; default: empty. */
    default Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
        return Optional.empty();
    }

    /** {@return the ranges kept for the fleet ({@link #keep}), lowest first; empty by default} */
    default List<ReservedRange> keptRanges(String sequence) {
        return List.of();
    }

    /**
     * Sets {@code next_value} to {@code nextValue} only if it is lower, atomically, so racing callers agree.
     *
     * @return whether the row was changed; false also if the row does not exist
     * @throws UnsupportedOperationException if this store cannot move a row (the default)
     */
    default boolean advance(String sequence, long nextValue) {
        throw new UnsupportedOperationException(name() + " store cannot move a sequence row forward");
    }

    /**
     * Reads the highest counter an application's column holds (of keys outside the
     * {@linkplain SequenceSettings#skipRange() skip range}), in a transaction of the store's own, where
     * {@link #readsApplicationTables}: 0 for an empty table, empty (the default) if this store cannot read it.
     */
    default OptionalLong highestCounter(String table, String column, SequenceSettings settings) {
        return OptionalLong.empty();
    }

    /** As {@link #highestCounter(String, String, SequenceSettings)}, of the {@code where} rows; sequential only. */
    default OptionalLong highestCounter(String table, String column, SequenceSettings settings, List<Where> where) {
        return where.isEmpty() ? highestCounter(table, column, settings) : OptionalLong.empty();
    }

    /**
     * Reads the highest counter among formatted numbers in a text column of the rows matching {@code where}
     * ({@code INV-2026-000041} holds 41), each value given once to {@code counterOf} (negative if not of the series):
     * 0 when none, empty (the default) if this store cannot read the application's tables.
     */
    default OptionalLong highestFormatted(String table, String column, List<Where> where,
            ToLongFunction<String> counterOf) {
        return OptionalLong.empty();
    }

    /**
     * A condition on a column of an application's table: equal to {@code value} when {@code until} is null, otherwise
     * from {@code value} (included) to {@code until} (excluded); values as JDBC's {@code setObject} binds them.
     */
    record Where(String column, Object value, @Nullable Object until) {

        public Where {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(value, "value");
        }
    }

    /**
     * {@return whether {@link #highestCounter} can read an application's tables on {@code platform}} (default true);
     * {@code platform} is named as seqgen's schema scripts do ({@code postgresql}, {@code spanner}...) or lowercase.
     */
    default boolean readsApplicationTables(String platform) {
        return true;
    }

    /** {@return the caller's transaction type {@link #reserveInTransaction} takes, or null (default: no SYNC)} */
    default @Nullable Class<?> transactionType() {
        return null;
    }

    /** {@return the SQL table of the rows when the application's schema tools can see it, or empty (default)} */
    default Optional<SqlTable> sqlTable() {
        return Optional.empty();
    }

    /** A store's SQL table, optionally schema-qualified, and its database as seqgen's schema scripts name it. */
    record SqlTable(String name, String platform) {
    }
}
