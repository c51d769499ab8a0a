package dev.seqgen.spanner.reliability;

import com.google.cloud.spanner.Statement;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The counter row moved back by hand on the Spanner emulator (an {@code UPDATE} through the
 * {@code DatabaseClient}, as an operator or a restore from a backup would), below values this generator had
 * reserved: the values in hand are still served, then the next reservation, a range at or below what the
 * generator reserved, is refused with a {@link SequenceUnavailableException} saying what happened and which
 * value the row needs, never handed out; once the row is set right, values flow again.
 */
@DisplayName("row moved back by hand on spanner-emulator")
class RowMovedBackOnTheEmulatorTest {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"ASYNC", "BATCH", "ASYNC_BATCH"})
    @DisplayName("spanner-emulator: a row moved back below what this generator reserved is refused, not reissued")
    void aRowMovedBackBelowWhatThisGeneratorReservedIsRefusedNotReissued(Strategy strategy) {
        String name = "edited-" + strategy.name().toLowerCase();
        SpannerSequenceStore store = emulator.store("seqgen_sequences");
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(5)
                .acquireTimeout(Duration.ofSeconds(10)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence sequence = registry.sequence(name);
            List<Long> values = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                values.add(sequence.next());
            }
            if (strategy == Strategy.ASYNC_BATCH) {
                awaitPrefetchedBlock(sequence); // 25 passed the low watermark of the third block
            }
            long reserved = sequence.stats().highestReserved();
            assertThat(store.nextValue(name)).hasValue(reserved + 1);

            setNextValue(name, 5);

            SequenceUnavailableException refused = null;
            int servedAfterTheEdit = 0;
            for (int i = 0; i < 100 && refused == null; i++) {
                try {
                    values.add(sequence.next()); // what is in hand was reserved before the edit
                    servedAfterTheEdit++;
                } catch (SequenceUnavailableException e) {
                    refused = e;
                }
            }
            assertThat(refused).as("a refusal once the values in hand ran out").isNotNull();
            assertThat(refused.getMessage()).contains("sequence '" + name + "'").contains("moved back")
                    .contains("set next_value to at least " + (reserved + 1));
            assertThat(servedAfterTheEdit).as("values in hand served after the edit")
                    .isEqualTo(strategy == Strategy.ASYNC ? 0 : (int) (reserved - 25));
            assertThat(sequence.stats().discarded()).as("the refused range").isPositive();
            Concurrently.assertUnique(values.stream().mapToLong(Long::longValue).toArray());

            setNextValue(name, reserved + 1);
            long after = sequence.next();
            assertThat(after).as("values flow again once the row is set right").isGreaterThan(reserved);
            values.add(after);
            values.add(sequence.next());
            Concurrently.assertUnique(values.stream().mapToLong(Long::longValue).toArray());
            System.out.printf("spanner-emulator %s: reserved up to %d, row moved back to 5, %d in hand served, then"
                    + " refused: %s%n", strategy, reserved, servedAfterTheEdit, refused.getMessage());
        }
    }

    private static void setNextValue(String name, long nextValue) {
        long changed = emulator.client().readWriteTransaction().run(tx -> tx.executeUpdate(Statement
                .newBuilder("UPDATE seqgen_sequences SET next_value = @next WHERE name = @name")
                .bind("next").to(nextValue)
                .bind("name").to(name)
                .build()));
        assertThat(changed).as("rows edited by hand").isEqualTo(1);
    }

    private static void awaitPrefetchedBlock(Sequence sequence) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sequence.stats().remaining() < 15) {
            assertThat(System.nanoTime() - deadline).as("prefetch arrived in time").isNegative();
            Thread.onSpinWait();
        }
    }
}
