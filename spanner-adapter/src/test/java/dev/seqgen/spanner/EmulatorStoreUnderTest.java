package dev.seqgen.spanner;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.Statement;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.CallCounter;
import dev.seqgen.testing.TestDatabase;
import dev.seqgen.testing.conformance.StoreUnderTest;

import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Spanner store on a database of the emulator ({@link SpannerEmulator}, of either dialect), a table of its own per
 * store, for the conformance kit. The emulator runs one read-write transaction at a time, so the load is small: this
 * proves behaviour, never speed.
 */
final class EmulatorStoreUnderTest implements StoreUnderTest {

    private static final Load LOAD = new Load(500, 20, 6, 20, 4, 200, SpannerEmulator.PATIENCE);

    private final SpannerEmulator emulator;

    EmulatorStoreUnderTest(SpannerEmulator emulator) {
        this.emulator = emulator;
    }

    @Override
    public SequenceStore newStore() {
        assertThat(emulator.client().getDialect()).isEqualTo(emulator.dialect());
        return emulator.store(TestDatabase.uniqueTable());
    }

    @Override
    public SequenceStore sameRows(SequenceStore store) {
        return emulator.store(((SpannerSequenceStore) store).table());
    }

    @Override
    public Observed newObservedStore() {
        CallCounter counter = new CallCounter();
        return new Observed(SpannerSequenceStore.builder(counter.counting(DatabaseClient.class, emulator.client()))
                .dialect(emulator.dialect()).build(), counter);
    }

    @Override
    public <T> T inTransaction(Function<Object, T> work) {
        try {
            return emulator.client().readWriteTransaction().run(work::apply);
        } catch (SpannerException e) {
            if (e.getCause() instanceof RuntimeException thrownByTheWork && !(e.getCause() instanceof SpannerException)) {
                throw thrownByTheWork;
            }
            throw e;
        }
    }

    @Override
    public boolean retriesCallerTransactions() {
        return true;
    }

    @Override
    public void setNextValue(SequenceStore store, String sequence, long nextValue) {
        String table = ((SpannerSequenceStore) store).table();
        Statement update = emulator.dialect() == Dialect.POSTGRESQL
                ? Statement.newBuilder("UPDATE " + table + " SET next_value = $1 WHERE name = $2")
                        .bind("p1").to(nextValue).bind("p2").to(sequence).build()
                : Statement.newBuilder("UPDATE " + table + " SET next_value = @next WHERE name = @name")
                        .bind("next").to(nextValue).bind("name").to(sequence).build();
        long changed = emulator.client().readWriteTransaction().run(tx -> tx.executeUpdate(update));
        assertThat(changed).as("rows edited by hand").isEqualTo(1);
    }

    @Override
    public Load load() {
        return LOAD;
    }

    @Override
    public void dropAll() {
        // The tables go with the test class's database.
    }

    @Override
    public String toString() {
        return "SpannerSequenceStore on spanner-emulator, " + emulator.dialect();
    }
}
