package dev.seqgen;

/**
 * A named sequence of unique {@code long} values, backed by one counter row in a store. Obtain one from a
 * {@link SequenceRegistry}: there is one instance per (store, name) per registry, shared by every thread.
 *
 * <p>Values are unique across every thread, every JVM and every strategy that uses the same row, whatever
 * fails. What else holds depends on the {@link Strategy}: see its table.
 *
 * <p>All methods are thread-safe. With a block in hand, {@link #next()} of BATCH and ASYNC_BATCH takes no
 * lock and allocates nothing.
 */
public interface Sequence extends AutoCloseable {

    /** {@return the sequence name, which is the key of its row in the store} */
    String name();

    /** {@return the strategy this sequence uses} */
    Strategy strategy();

    /** {@return the settings this sequence was created with} */
    SequenceSettings settings();

    /**
     * Returns the next value, reserved in a transaction of the store's own.
     *
     * @return a value no other caller gets
     * @throws IllegalStateException if the strategy is {@link Strategy#SYNC}, which needs the caller's
     *     transaction: use {@link #nextInTransaction(Object)}
     * @throws SequenceUnavailableException if no value could be had within the acquire timeout, or the
     *     sequence is closed
     * @throws SequenceExhaustedException if the maximum value has been handed out
     */
    long next();

    /**
     * Returns {@code count} values at once, for bulk inserts. ASYNC hands out consecutive values; BATCH and
     * ASYNC_BATCH take what is left of the current block first, so the values are increasing but may jump
     * between blocks.
     *
     * @param count how many values, at least 1
     * @return a new array of {@code count} unique values, in increasing order
     * @throws IllegalArgumentException if {@code count} is less than 1
     * @throws IllegalStateException if the strategy is {@link Strategy#SYNC}
     * @throws SequenceUnavailableException if the values could not be had within the acquire timeout
     * @throws SequenceExhaustedException if fewer than {@code count} values are left below the maximum
     */
    long[] nextValues(int count);

    /**
     * Returns the next value, taken within the caller's transaction for {@link Strategy#SYNC}: it commits (gapless)
     * or rolls back with it, and the row stays locked until then. The transaction's type is the store's
     * ({@link dev.seqgen.spi.SequenceStore#transactionType()}). A SYNC increment is not retried: the caller retries its
     * whole transaction. Other strategies ignore the transaction and behave as {@link #next()}.
     *
     * @param transaction the caller's transaction
     * @return a value no committed transaction of another caller gets
     * @throws IllegalArgumentException if the transaction is not of the type the store needs
     * @throws SequenceUnavailableException if the store failed
     * @throws SequenceExhaustedException if the maximum value has been handed out
     */
    long nextInTransaction(Object transaction);

    /**
     * Returns {@code count} values taken within the caller's transaction; for {@link Strategy#SYNC} they
     * are consecutive. Other strategies behave as {@link #nextValues(int)}.
     *
     * @param transaction the caller's transaction
     * @param count how many values, at least 1
     * @return a new array of {@code count} unique values, in increasing order
     * @throws IllegalArgumentException if {@code count} is less than 1 or the transaction is of the wrong
     *     type
     * @throws SequenceUnavailableException if the store failed
     * @throws SequenceExhaustedException if fewer than {@code count} values are left below the maximum
     */
    long[] nextValuesInTransaction(Object transaction, int count);

    /**
     * Gives back the unused tail of the last {@link #nextValuesInTransaction} call of this open transaction, so a
     * {@link Strategy#SYNC} sequence stays gapless when fewer values were needed than taken.
     *
     * @param transaction the caller's transaction, the one that took the values
     * @param firstUnused the first value not used; a counter value: for a {@link KeyOrder key order} other than
     *     sequential, {@link KeyOrder#counter(long)} of the first key not used
     * @param end one past the last value taken (the counter value of the last key taken, plus one)
     * @return whether the values were given back; false (the default, and for strategies other than SYNC or
     *     stores that cannot) leaves them unused, a gap
     * @throws SequenceUnavailableException if the store failed
     */
    default boolean giveBackInTransaction(Object transaction, long firstUnused, long end) {
        return false;
    }

    /** {@return a snapshot of this sequence's counters and current block, read without stopping other callers} */
    SequenceStats stats();

    /**
     * Closes the sequence: later calls throw {@link SequenceUnavailableException}; values in hand go back to the row,
     * else are kept for the fleet, and what became of them is logged ({@link CloseReport}). Idempotent.
     */
    @Override
    void close();
}
