package dev.seqgen.testing.conformance;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract of a store that serves SYNC: increments inside the caller's transaction
 * ({@link StoreUnderTest#inTransaction}) that commit or roll back with it.
 */
public interface SyncContract extends StoreContract {

    /** Thrown from a caller's transaction to roll it back. */
    final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    @Test
    default void incrementsInTheCallersTransactionAreConsecutiveAndRollBackWithIt() {
        SequenceStore store = subject().newStore();
        create(store, "orders", 1, 10, MAX);

        List<ReservedRange> ranges = subject().inTransaction(transaction -> List.of(
                store.reserveInTransaction(transaction, "orders", 1, MAX),
                store.reserveInTransaction(transaction, "orders", 3, MAX),
                store.reserveInTransaction(transaction, "orders", 1, MAX)));
        assertThat(ranges).containsExactly(new ReservedRange(1, 2), new ReservedRange(2, 5), new ReservedRange(5, 6));
        assertThat(store.nextValue("orders")).hasValue(6);

        assertThatThrownBy(() -> subject().inTransaction(transaction -> {
            store.reserveInTransaction(transaction, "orders", 5, MAX);
            throw new RolledBack();
        })).isInstanceOf(RolledBack.class);
        assertThat(store.nextValue("orders")).as("rolled back with the caller").hasValue(6);
    }

    @Test
    default void syncHandsOutConsecutiveValuesWithinOneTransactionAndARollbackUndoesThem() {
        SequenceStore store = subject().newStore();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(Strategy.SYNC).build())
                .build()) {
            Sequence invoices = registry.sequence("invoices");
            assertThatThrownBy(() -> subject().inTransaction(transaction -> {
                assertThat(invoices.nextInTransaction(transaction)).isEqualTo(1);
                assertThat(invoices.nextValuesInTransaction(transaction, 3)).containsExactly(2, 3, 4);
                assertThat(invoices.nextInTransaction(transaction)).isEqualTo(5);
                throw new RolledBack();
            })).isInstanceOf(RolledBack.class);
            long[] values = subject().inTransaction(transaction -> new long[] {
                    invoices.nextInTransaction(transaction), invoices.nextInTransaction(transaction)});
            assertThat(values).as("the rollback undid all five").containsExactly(1, 2);
            assertThat(store.nextValue("invoices")).hasValue(3);
        }
    }

    /**
     * A tail taken in the caller's transaction and not used goes back in the same transaction, while it holds
     * the row, so that the commit publishes the row without it (SYNC numbers counted for inserts that did not
     * run); the compare-and-set fails once the row is no longer where the caller left it.
     */
    @Test
    default void aTailTakenInTheCallersTransactionIsGivenBackInIt() {
        SequenceStore store = subject().newStore();
        create(store, "orders", 1, 10, MAX);
        List<Boolean> given = subject().inTransaction(transaction -> {
            assertThat(store.reserveInTransaction(transaction, "orders", 5, MAX)).isEqualTo(new ReservedRange(1, 6));
            return List.of(store.giveBackInTransaction(transaction, "orders", 6, 3),
                    store.giveBackInTransaction(transaction, "orders", 6, 4));
        });
        assertThat(given).as("the tail [3, 6), then a compare-and-set on a row that moved").containsExactly(true,
                false);
        assertThat(store.nextValue("orders")).hasValue(3);

        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(Strategy.SYNC).build())
                .build()) {
            Sequence orders = registry.sequence("orders");
            long[] kept = subject().inTransaction(transaction -> {
                long[] values = orders.nextValuesInTransaction(transaction, 4);
                assertThat(values).containsExactly(3, 4, 5, 6);
                assertThat(orders.giveBackInTransaction(transaction, 5, 7)).isTrue();
                return new long[] {values[0], values[1], orders.nextInTransaction(transaction)};
            });
            assertThat(kept).as("the value after the given-back tail is the tail's first").containsExactly(3, 4, 5);
            assertThat(orders.stats().issued()).as("given-back values are not counted as issued").isEqualTo(3);
        }
        assertThat(store.nextValue("orders")).hasValue(6);
    }

    /**
     * Three registries (as three JVMs) of eight threads each; a third of the transactions roll back. The committed
     * values are unique and gapless, and, where each attempt of a transaction runs once, in commit order.
     */
    @Test
    default void syncIsGaplessAndInCommitOrderWhileAThirdOfTheTransactionsRollBack() throws Exception {
        SequenceStore store = subject().newStore();
        SequenceSettings sync = settings(Strategy.SYNC).initialValue(1000).build();
        int transactions = subject().load().gaplessTransactionsPerThread();
        List<Long> commitOrder = Collections.synchronizedList(new ArrayList<>());
        try (SequenceRegistry a = SequenceRegistry.builder(store).defaults(sync).build();
                SequenceRegistry b = SequenceRegistry.builder(store).defaults(sync).build();
                SequenceRegistry c = SequenceRegistry.builder(store).defaults(sync).build()) {
            Sequence[] generators = {a.sequence("invoices"), b.sequence("invoices"), c.sequence("invoices")};
            long[] committed = Concurrently.run(3 * 8, thread -> {
                long[] mine = new long[transactions];
                int n = 0;
                for (int i = 0; i < transactions; i++) {
                    Sequence sequence = generators[(thread + i) % 3];
                    boolean rollBack = i % 3 == 1;
                    try {
                        mine[n] = subject().inTransaction(transaction -> {
                            long value = sequence.nextInTransaction(transaction);
                            if (rollBack) {
                                throw new RolledBack();
                            }
                            commitOrder.add(value); // the row is still locked by us: this is commit order
                            return value;
                        });
                        n++;
                    } catch (RolledBack expected) {
                        // a third of them
                    }
                }
                return Arrays.copyOf(mine, n);
            });
            long[] sorted = Concurrently.assertUnique(committed);
            assertThat(sorted).hasSize(3 * 8 * (transactions - (transactions + 1) / 3));
            Concurrently.assertContiguousFrom(1000, sorted);
            assertThat(store.nextValue("invoices")).hasValue(1000 + sorted.length);
            if (!subject().retriesCallerTransactions()) {
                assertThat(commitOrder).isSorted();
            }
        }
    }
}
