package dev.seqgen.spanner;

import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.Statement;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStoreException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The store's own operations on the Cloud Spanner emulator, one database for the class. */
@DisplayName("SpannerSequenceStore on spanner-emulator")
class SpannerSequenceStoreEmulatorTest {

    private static final long MAX = SequenceSettings.LARGEST_MAX_VALUE;

    @RegisterExtension
    static final SpannerEmulator emulator =
            new SpannerEmulator("CREATE TABLE ledger (id INT64 NOT NULL) PRIMARY KEY (id)");

    private SpannerSequenceStore store;

    @BeforeEach
    void createStore() {
        store = emulator.store("seqgen_sequences");
    }

    @Test
    @DisplayName("spanner-emulator: creates the table on demand and the row at its initial value, once")
    void createsTheTableOnDemandAndTheRowAtItsInitialValueOnce() {
        SpannerSequenceStore ownTable = emulator.store("seqgen_created_on_demand");
        assertThatThrownBy(() -> ownTable.nextValue("orders")).as("before the table exists")
                .isInstanceOf(SequenceStoreException.class).hasMessageContaining("seqgen_created_on_demand");

        ownTable.createSequence("orders", 100);
        ownTable.createSequence("orders", 5);
        emulator.store("seqgen_created_on_demand").createSequence("invoices", 1);

        assertThat(ownTable.nextValue("orders")).hasValue(100);
        assertThat(ownTable.nextValue("invoices")).hasValue(1);
        assertThat(ownTable.nextValue("unknown")).isEmpty();
    }

    @Test
    @DisplayName("spanner-emulator: reserves consecutive blocks, each ending at the row's next_value")
    void reservesConsecutiveBlocksEachEndingAtTheRowsNextValue() {
        store.createSequence("blocks", 1);

        assertThat(store.reserve("blocks", 10, MAX)).isEqualTo(new ReservedRange(1, 11));
        assertThat(store.reserve("blocks", 5, MAX)).isEqualTo(new ReservedRange(11, 16));
        assertThat(store.nextValue("blocks")).hasValue(16);
    }

    @Test
    @DisplayName("spanner-emulator: shortens the last block at the maximum value, then raises exhausted")
    void shortensTheLastBlockAtTheMaximumValueThenRaisesExhausted() {
        store.createSequence("small", 1);

        assertThat(store.reserve("small", 10, 25)).isEqualTo(new ReservedRange(1, 11));
        assertThat(store.reserve("small", 10, 25)).isEqualTo(new ReservedRange(11, 21));
        assertThat(store.reserve("small", 10, 25)).isEqualTo(new ReservedRange(21, 26));
        assertThatThrownBy(() -> store.reserve("small", 10, 25))
                .isInstanceOf(SequenceExhaustedException.class)
                .hasMessageContaining("'small'").hasMessageContaining("25");
        assertThat(store.nextValue("small")).hasValue(26);
    }

    @Test
    @DisplayName("spanner-emulator: reaches Long.MAX_VALUE - 1 without overflowing the SQL")
    void reachesTheLargestMaximumValueWithoutOverflow() {
        store.createSequence("largest", MAX - 2);

        assertThat(store.reserve("largest", 1000, MAX)).isEqualTo(new ReservedRange(MAX - 2, MAX + 1));
        assertThatThrownBy(() -> store.reserve("largest", 1000, MAX)).isInstanceOf(SequenceExhaustedException.class);
    }

    @Test
    @DisplayName("spanner-emulator: reports a missing row as a permanent error instead of recreating it")
    void reportsAMissingRowAsAPermanentErrorInsteadOfRecreatingIt() {
        assertThatThrownBy(() -> store.reserve("never-created", 1, MAX))
                .isInstanceOfSatisfying(SequenceStoreException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining("'never-created'").hasMessageContaining("seqgen_sequences");
        assertThat(store.nextValue("never-created")).isEmpty();
    }

    @Test
    @DisplayName("spanner-emulator: moves a row forward, never backwards, and several callers at once agree")
    void movesARowForwardNeverBackwards() throws Exception {
        store.createSequence("adopted", 1);
        assertThat(store.advance("adopted", 1_001)).isTrue();
        assertThat(store.advance("adopted", 500)).as("never backwards").isFalse();
        assertThat(store.advance("missing-row", 10)).as("no row").isFalse();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> racing = new ArrayList<>();
            for (long target : new long[] {2_000, 3_000, 2_500, 1_500}) {
                racing.add(pool.submit(() -> store.advance("adopted", target)));
            }
            for (Future<Boolean> advance : racing) {
                advance.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(store.nextValue("adopted")).as("the highest asked for").hasValue(3_000);
        assertThat(store.reserve("adopted", 10, MAX)).isEqualTo(new ReservedRange(3_000, 3_010));
    }

    @Test
    @DisplayName("spanner-emulator: gives back a tail only while nobody reserved after it (compare-and-set)")
    void givesBackATailOnlyWhileNobodyReservedAfterIt() {
        store.createSequence("give-back", 1);
        store.reserve("give-back", 10, MAX);

        assertThat(store.giveBack("give-back", 11, 5)).isTrue();
        assertThat(store.nextValue("give-back")).hasValue(5);
        assertThat(store.reserve("give-back", 3, MAX)).isEqualTo(new ReservedRange(5, 8));
        assertThat(store.giveBack("give-back", 5, 1)).as("someone reserved after the caller").isFalse();
        assertThat(store.nextValue("give-back")).hasValue(8);
    }

    @Test
    @DisplayName("spanner-emulator: values taken in one caller's transaction are consecutive and see each other")
    void valuesTakenInOneCallersTransactionAreConsecutive() {
        store.createSequence("in-transaction", 1);

        List<ReservedRange> ranges = emulator.client().readWriteTransaction().run(tx -> List.of(
                store.reserveInTransaction(tx, "in-transaction", 1, MAX),
                store.reserveInTransaction(tx, "in-transaction", 3, MAX),
                store.reserveInTransaction(tx, "in-transaction", 1, MAX)));

        assertThat(ranges).containsExactly(new ReservedRange(1, 2), new ReservedRange(2, 5), new ReservedRange(5, 6));
        assertThat(store.nextValue("in-transaction")).hasValue(6);
    }

    @Test
    @DisplayName("spanner-emulator: an increment in the caller's transaction rolls back with it")
    void anIncrementInTheCallersTransactionRollsBackWithIt() {
        store.createSequence("rolled-back", 1);

        assertThatThrownBy(() -> emulator.client().readWriteTransaction().run(tx -> {
            store.reserveInTransaction(tx, "rolled-back", 5, MAX);
            throw new IllegalStateException("the caller gives up");
        })).isInstanceOf(SpannerException.class).hasRootCauseMessage("the caller gives up");

        assertThat(store.nextValue("rolled-back")).hasValue(1);
    }

    @Test
    @DisplayName("spanner-emulator: a caller's transaction of another type is rejected, naming the type needed")
    void aCallersTransactionOfAnotherTypeIsRejected() {
        assertThatThrownBy(() -> store.reserveInTransaction("not a transaction", "orders", 1, MAX))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("com.google.cloud.spanner.TransactionContext")
                .hasMessageContaining("java.lang.String");
    }

    @Test
    @DisplayName("spanner-emulator: the store's own transactions work from inside a caller's transaction")
    void theStoresOwnTransactionsWorkFromInsideACallersTransaction() {
        // Without a thread of the store's own, the client refuses: "Nested transactions are not supported".
        long id = emulator.client().readWriteTransaction().run(tx -> {
            store.createSequence("nested", 1);
            long first = store.reserve("nested", 1, MAX).first();
            tx.executeUpdate(Statement.newBuilder("INSERT INTO ledger (id) VALUES (@id)").bind("id").to(first).build());
            return first;
        });

        assertThat(id).isEqualTo(1);
        assertThat(store.nextValue("nested")).hasValue(2);
    }
}
