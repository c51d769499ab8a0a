package dev.seqgen.testing;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceSettings;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.conformance.StoreUnderTest;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The in-memory fake the strategies' unit tests rely on, for the conformance kit: if the fake broke the contract
 * the real stores keep, those tests would prove nothing about the strategies on a real store.
 */
final class InMemoryStoreUnderTest implements StoreUnderTest {

    private static final Load LOAD = new Load(4_167, 4_167, 300, 300, 8, 1_000, Duration.ofSeconds(30));

    @Override
    public SequenceStore newStore() {
        return new InMemorySequenceStore();
    }

    @Override
    public SequenceStore sameRows(SequenceStore store) {
        return ((InMemorySequenceStore) store).sameRows();
    }

    /**
     * The fake has no connection source: its row operations stand for it. Calls that only describe the store
     * (its name, kind and transaction type) go to the store directly, as a JDBC store answers them without its
     * data source; every other call is counted.
     */
    @Override
    public Observed newObservedStore() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        CallCounter counter = new CallCounter();
        SequenceStore rows = counter.counting(SequenceStore.class, store);
        return new Observed(new ForwardingSequenceStore(rows) {
            @Override
            public String name() {
                return store.name();
            }

            @Override
            public CounterKind kind() {
                return store.kind();
            }

            @Override
            public Class<?> transactionType() {
                return store.transactionType();
            }

            @Override
            public boolean variableReservationSizes() {
                return store.variableReservationSizes();
            }

            @Override
            public void createSequence(String sequence, SequenceSettings settings) {
                rows.createSequence(sequence, settings);
            }

            @Override
            public ReservedRange reserve(String sequence, long count, long maxValue) {
                return rows.reserve(sequence, count, maxValue);
            }

            @Override
            public OptionalLong nextValue(String sequence) {
                return rows.nextValue(sequence);
            }
        }, counter);
    }

    @Override
    public <T> T inTransaction(Function<Object, T> work) {
        InMemorySequenceStore.Transaction transaction = new InMemorySequenceStore().begin();
        T result;
        try {
            result = work.apply(transaction);
        } catch (RuntimeException e) {
            transaction.rollback();
            throw e;
        }
        transaction.commit();
        return result;
    }

    @Override
    public void setNextValue(SequenceStore store, String sequence, long nextValue) {
        ((InMemorySequenceStore) store).setNextValue(sequence, nextValue);
    }

    @Override
    public Load load() {
        return LOAD;
    }

    @Override
    public void dropAll() {
        // each store's rows are garbage once the test drops the store
    }

    @Override
    public String toString() {
        return "InMemorySequenceStore";
    }
}
