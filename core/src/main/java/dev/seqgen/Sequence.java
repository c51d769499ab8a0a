package dev.seqgen;

/**
 * A named sequence of unique {@code long} values, backed by one counter row in a store; one instance per (store, name)
 * per {@link SequenceRegistry}, shared by every thread. Values are unique across threads, JVMs and strategies using
 * the same row; what else holds depends on the {@link Strategy}. Thread-safe; with a block in hand, {@link #next()} of
 * BATCH and ASYNC_BATCH takes no lock and allocates nothing.
 */
public interface Sequence extends AutoCloseable {

    /** {@return the sequence name, the key of its row in the store} */
    String name();

    /** {@return the strategy this sequence uses} */
    Strategy strategy();

    /** {@return the settings this sequence was created with} */
    SequenceSettings settings();

    /**
     * Returns the next value, reserved in a transaction of the store's own.
     * @throws IllegalStateException for {@link Strategy#SYNC}: use {@link #nextInTransaction(Object)}
     * @throws SequenceUnavailableException if no value came within the acquire timeout, or the sequence is closed
     * @throws SequenceExhaustedException if the maximum value has been handed out
     */
    long next();

    /**
     * Returns {@code count} unique increasing values: consecutive for ASYNC; BATCH and ASYNC_BATCH take the rest of
     * the current block first, so values may jump between blocks. Throws as {@link #next()}, and
     * {@link IllegalArgumentException} if {@code count} is less than 1, {@link SequenceExhaustedException} if fewer
     * than {@code count} values are left.
     */
    long[] nextValues(int count);

    /**
     * Returns the next value; for {@link Strategy#SYNC} taken within the caller's transaction (of the store's
     * {@link dev.seqgen.spi.SequenceStore#transactionType()}), committing or rolling back with it, the row locked until
     * then, and not retried. Other strategies ignore the transaction and behave as {@link #next()}.
     * @throws IllegalArgumentException if the transaction is not of the type the store needs
     * @throws SequenceUnavailableException if the store failed
     * @throws SequenceExhaustedException if the maximum value has been handed out
     */
    long nextInTransaction(Object transaction);

    /**
     * Returns {@code count} unique increasing values within the caller's transaction, as {@link #nextInTransaction}
     * (consecutive for {@link Strategy#SYNC}; other strategies behave as {@link #nextValues(int)}). Also throws
     * {@link IllegalArgumentException} if {@code count} is less than 1.
     */
    long[] nextValuesInTransaction(Object transaction, int count);

    /**
     * Gives back the unused tail of the last {@link #nextValuesInTransaction} call of this open transaction, so SYNC
     * stays gapless. {@code firstUnused} and {@code end} are counter values ({@link KeyOrder#counter(long)} of a key).
     * @return whether the values were given back; false (default, other strategies, stores that cannot): a gap
     * @throws SequenceUnavailableException if the store failed
     */
    default boolean giveBackInTransaction(Object transaction, long firstUnused, long end) {
        return false;
    }

    /** {@return a snapshot of this sequence's counters and current block, read without stopping other callers} */
    SequenceStats stats();

    /**
     * Closes the sequence, idempotently: later calls throw {@link SequenceUnavailableException}; values in hand go
     * back to the row, else are kept for the fleet, and what became of them is logged ({@link CloseReport}).
     */
    @Override
    void close();
}
