package dev.seqgen.spanner;

import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.Statement;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The strategies on the Cloud Spanner emulator inside a caller's transaction that also writes a row: SYNC's values are
 * the keys written in the transaction that took them, and the other strategies never nest transactions. The contract
 * every store meets is {@code SpannerSequenceStoreConformanceOn*EmulatorTest}. The emulator runs one read-write transaction at a time
 * and aborts the others (the client retries them), so the counts are kept moderate: this proves behaviour,
 * never speed.
 */
@DisplayName("strategies on spanner-emulator")
class SpannerStrategiesEmulatorTest {

    @RegisterExtension
    static final SpannerEmulator emulator =
            new SpannerEmulator("CREATE TABLE ledger (id INT64 NOT NULL) PRIMARY KEY (id)");

    private SpannerSequenceStore store;

    @BeforeEach
    void createStore() {
        store = emulator.store("seqgen_sequences");
    }

    /** Settings with an acquire timeout long enough for the emulator's serialised transactions. */
    private static SequenceSettings.Builder settings(Strategy strategy) {
        return SequenceSettings.builder().strategy(strategy).acquireTimeout(SpannerEmulator.PATIENCE);
    }

    @Test
    @DisplayName("spanner-emulator: SYNC values from 8 threads in each of 3 registries are unique and gapless among"
            + " commits while a third of the transactions roll back")
    void syncValuesAreUniqueAndGaplessAmongCommitsWhileAThirdRollBack() throws Exception {
        SequenceSettings sync = settings(Strategy.SYNC).initialValue(1000).build();
        try (SequenceRegistry a = SequenceRegistry.builder(store).defaults(sync).build();
                SequenceRegistry b = SequenceRegistry.builder(store).defaults(sync).build();
                SequenceRegistry c = SequenceRegistry.builder(store).defaults(sync).build()) {
            Sequence[] generators = {a.sequence("gapless"), b.sequence("gapless"), c.sequence("gapless")};

            long[] committed = Concurrently.run(3 * 8, thread -> {
                Sequence sequence = generators[thread % 3];
                List<Long> mine = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    boolean rollBack = i % 3 == 2;
                    try {
                        mine.add(emulator.client().readWriteTransaction().run(tx -> {
                            long value = sequence.nextInTransaction(tx);
                            tx.executeUpdate(ledgerInsert(value));
                            if (rollBack) {
                                throw new RolledBack();
                            }
                            return value;
                        }));
                    } catch (SpannerException e) {
                        if (!(e.getCause() instanceof RolledBack)) {
                            throw e;
                        }
                    }
                }
                return mine.stream().mapToLong(Long::longValue).toArray();
            });

            long[] sorted = Concurrently.assertUnique(committed);
            assertThat(sorted).hasSize(3 * 8 * 4);
            Concurrently.assertContiguousFrom(1000, sorted);
            assertThat(store.nextValue("gapless")).hasValue(1000 + sorted.length);
            assertThat(ledgerBetween(1000, 2000)).containsExactly(sorted);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"ASYNC", "BATCH", "ASYNC_BATCH"})
    @DisplayName("spanner-emulator: values are taken inside a caller's transaction without nesting transactions")
    void valuesAreTakenInsideACallersTransactionWithoutNestingTransactions(Strategy strategy) {
        SequenceSettings settings = settings(strategy).blockSize(3).lowWatermark(1)
                .initialValue(5000 + 100 * strategy.ordinal()).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            long[] ids = new long[5];
            for (int i = 0; i < ids.length; i++) {
                // The caller's transaction starts with its first statement; the emulator, which runs one
                // read-write transaction at a time, needs the value taken before that.
                ids[i] = emulator.client().readWriteTransaction().run(tx -> {
                    long id = registry.sequence("nested-" + strategy.name().toLowerCase()).next();
                    tx.executeUpdate(ledgerInsert(id));
                    return id;
                });
            }

            long[] sorted = Concurrently.assertUnique(ids);
            assertThat(sorted[0]).isGreaterThanOrEqualTo(settings.initialValue());
            assertThat(ledgerBetween(settings.initialValue(), settings.initialValue() + 100)).containsExactly(sorted);
        }
    }

    /** Records a value in the caller's transaction, as an application would use it as a key. */
    private static Statement ledgerInsert(long id) {
        return Statement.newBuilder("INSERT INTO ledger (id) VALUES (@id)").bind("id").to(id).build();
    }

    private static long[] ledgerBetween(long from, long to) {
        List<Long> ids = new ArrayList<>();
        Statement query = Statement.newBuilder("SELECT id FROM ledger WHERE id >= @from AND id < @to ORDER BY id")
                .bind("from").to(from)
                .bind("to").to(to)
                .build();
        try (var rows = emulator.client().singleUse().executeQuery(query)) {
            while (rows.next()) {
                ids.add(rows.getLong(0));
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    /** Thrown from a transaction callable to roll the transaction back. */
    private static final class RolledBack extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
