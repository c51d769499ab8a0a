package dev.seqgen;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SyncSequenceTest {

    private final InMemorySequenceStore store = new InMemorySequenceStore();
    private final SequenceSettings sync = SequenceSettings.builder().strategy(Strategy.SYNC).build();

    @Test
    void committedValuesAreGaplessAndInCommitOrderWhileAThirdRollBack() throws Exception {
        List<Long> commitOrder = Collections.synchronizedList(new ArrayList<>());
        try (SequenceRegistry a = SequenceRegistry.builder(store).defaults(sync).build();
                SequenceRegistry b = SequenceRegistry.builder(store).defaults(sync).build()) {
            Sequence[] generators = {a.sequence("invoices"), b.sequence("invoices")};
            long[] committed = Concurrently.run(8, thread -> {
                long[] mine = new long[3000];
                int n = 0;
                for (int i = 0; i < 4500; i++) {
                    InMemorySequenceStore.Transaction tx = store.begin();
                    long value = generators[(thread + i) % 2].nextInTransaction(tx);
                    if (i % 3 == 2) {
                        tx.rollback();
                    } else {
                        commitOrder.add(value); // still holding the row lock: commit order is this order
                        tx.commit();
                        mine[n++] = value;
                    }
                }
                return java.util.Arrays.copyOf(mine, n);
            });
            long[] sorted = Concurrently.assertUnique(committed);
            Concurrently.assertContiguousFrom(1, sorted);
            assertThat(commitOrder).isSorted();
            assertThat(store.nextValue("invoices")).hasValue(sorted.length + 1);
        }
    }

    @Test
    void severalValuesInOneTransactionAreConsecutive() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(sync).build()) {
            Sequence invoices = registry.sequence("invoices");
            InMemorySequenceStore.Transaction tx = store.begin();
            long first = invoices.nextInTransaction(tx);
            long second = invoices.nextInTransaction(tx);
            long[] more = invoices.nextValuesInTransaction(tx, 3);
            tx.commit();
            assertThat(first).isEqualTo(1);
            assertThat(second).isEqualTo(2);
            assertThat(more).containsExactly(3, 4, 5);
        }
    }

    @Test
    void nextWithoutTransactionIsAClearError() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(sync).build()) {
            Sequence invoices = registry.sequence("invoices");
            assertThatThrownBy(invoices::next).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'invoices'").hasMessageContaining("nextInTransaction");
            assertThatThrownBy(() -> invoices.nextValues(3)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'invoices'").hasMessageContaining("nextValuesInTransaction");
            assertThatThrownBy(() -> invoices.nextInTransaction(null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'invoices'");
        }
    }
}
