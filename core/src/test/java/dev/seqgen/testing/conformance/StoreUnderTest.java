package dev.seqgen.testing.conformance;

import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.CallCounter;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A store as the conformance kit sees it: how to build fresh ones, and what the kit needs beyond the SPI. What a
 * store can do beyond the SPI's core (SYNC, give-back, rows edited by hand) is not a flag here but a contract the
 * store's test class implements ({@link SyncContract}, {@link GiveBackContract}, {@link RowEditedByHandContract}),
 * so no test is ever skipped for a store that cannot do it.
 */
public interface StoreUnderTest {

    /** A store over rows no other test uses: a table, prefix or database of its own, dropped by {@link #dropAll}. */
    SequenceStore newStore();

    /** Another store over the same rows as {@code store}, as another JVM would build it. */
    SequenceStore sameRows(SequenceStore store);

    /**
     * A new store whose connection source (data source, database client) counts every call: a name the store
     * rejects before any of them is a name no SQL was built from.
     */
    Observed newObservedStore();

    /** A store and the calls it has made on its connection source so far. */
    record Observed(SequenceStore store, CallCounter counter) {
    }

    /**
     * Runs work in a caller's transaction of the type the store documents for
     * {@link SequenceStore#reserveInTransaction} and commits it; a {@link RuntimeException} thrown by the work rolls
     * the transaction back and is thrown again as it is. Needed by {@link SyncContract}.
     */
    default <T> T inTransaction(Function<Object, T> work) {
        throw new UnsupportedOperationException(this + " has no caller's transaction");
    }

    /**
     * Whether the store may run a caller's transaction more than once (Spanner retries aborted ones), so that what the
     * work records before the commit is not commit order.
     */
    default boolean retriesCallerTransactions() {
        return false;
    }

    /** Sets a row's {@code next_value} by hand, as an operator would. Needed by {@link RowEditedByHandContract}. */
    default void setNextValue(SequenceStore store, String sequence, long nextValue) {
        throw new UnsupportedOperationException(this + " has no row to edit by hand");
    }

    /** The strategies the store serves. */
    default List<Strategy> strategies() {
        return List.of(Strategy.values());
    }

    /** Whether ASYNC serves several consecutive values to one call ({@code nextValues(n)}). */
    default boolean consecutiveAsyncValues() {
        return true;
    }

    /** How much work the kit's concurrent tests do on this store. */
    Load load();

    /**
     * How much work the concurrent tests do: a database server takes the full load, the Spanner emulator (which runs
     * one read-write transaction at a time) a small one.
     *
     * @param valuesPerThread values per thread of BATCH and ASYNC_BATCH in the 3 registries x 8 threads test
     * @param oneByOneValuesPerThread values per thread of ASYNC and SYNC there (a store transaction each)
     * @param gaplessTransactionsPerThread SYNC transactions per thread of the gapless test, a third rolled back
     * @param reservationsPerThread reservations per thread of the 3 stores x 2 threads tests
     * @param overflowThreads threads racing for the last values below a maximum
     * @param overflowValues values below the maximum they race for
     * @param patience acquire timeout of the sequences under test
     */
    record Load(int valuesPerThread, int oneByOneValuesPerThread, int gaplessTransactionsPerThread,
            int reservationsPerThread, int overflowThreads,
            long overflowValues, Duration patience) {
    }

    /** Drops everything the stores of this test created. */
    void dropAll();
}
