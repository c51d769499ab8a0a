package dev.seqgen.spanner;

import com.google.cloud.spanner.Statement;
import dev.seqgen.SequenceSettings;
import dev.seqgen.spi.SequenceStoreException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What only the Spanner store does, on the Cloud Spanner emulator, one database for the class; the contract every store
 * meets is {@code SpannerSequenceStoreConformanceOn*EmulatorTest}.
 */
@DisplayName("SpannerSequenceStore on spanner-emulator")
class SpannerSequenceStoreEmulatorTest {

    private static final long MAX = SequenceSettings.LARGEST_MAX_VALUE;

    @RegisterExtension
    static final SpannerEmulator emulator =
            new SpannerEmulator("CREATE TABLE ledger (id INT64 NOT NULL) PRIMARY KEY (id)",
                    "CREATE TABLE adopted_keys (id INT64 NOT NULL) PRIMARY KEY (id)");

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
    @DisplayName("spanner-emulator: reports a missing row as a permanent error instead of recreating it")
    void reportsAMissingRowAsAPermanentErrorInsteadOfRecreatingIt() {
        assertThatThrownBy(() -> store.reserve("never-created", 1, MAX))
                .isInstanceOfSatisfying(SequenceStoreException.class, e -> assertThat(e.isTransient()).isFalse())
                .hasMessageContaining("'never-created'").hasMessageContaining("seqgen_sequences");
        assertThat(store.nextValue("never-created")).isEmpty();
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

    @Test
    @DisplayName("spanner-emulator: reads the counters a table's keys hold, sequential or bit-reversed, outside the skip range")
    void readsTheCountersATablesKeysHold() {
        SequenceSettings sequential = SequenceSettings.defaults();
        assertThat(store.highestCounter("adopted_keys", "id", sequential)).as("an empty table").hasValue(0);
        long[] keys = {7, 42, dev.seqgen.KeyOrder.BIT_REVERSED.key(300), dev.seqgen.KeyOrder.BIT_REVERSED.key(5)};
        emulator.client().readWriteTransaction().run(tx -> {
            for (long key : keys) {
                tx.executeUpdate(Statement.newBuilder("INSERT INTO adopted_keys (id) VALUES (@id)").bind("id").to(key)
                        .build());
            }
            return null;
        });
        assertThat(store.highestCounter("adopted_keys", "id", sequential))
                .hasValue(java.util.Arrays.stream(keys).max().orElseThrow());
        SequenceSettings reversed = SequenceSettings.builder().keyOrder(dev.seqgen.KeyOrder.BIT_REVERSED)
                .skipRange(dev.seqgen.KeyRange.of(1, 100)).build();
        assertThat(store.highestCounter("adopted_keys", "id", reversed))
                .as("keys 7 and 42 left to the skip range; the others mapped back to counters 300 and 5").hasValue(300);
        assertThatThrownBy(() -> store.highestCounter("no_such_table", "id", sequential))
                .isInstanceOf(SequenceStoreException.class).hasMessageContaining("no_such_table");
    }
}
