package dev.seqgen.spanner.reliability;

import com.google.cloud.spanner.SpannerException;
import com.google.cloud.spanner.Statement;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The last values below {@code Long.MAX_VALUE - 1}, the largest maximum, raced for on the Spanner emulator by
 * four threads on two registries with single and bulk calls and blocks of 16, so that the last block is short
 * and bulk calls straddle the end: every value up to the maximum is issued once or counted as discarded, none
 * beyond it; every caller then gets {@link SequenceExhaustedException}, again and again, never a wrapped or
 * negative value; and the row stops at the maximum plus one ({@code Long.MAX_VALUE}, which INT64 holds).
 */
@DisplayName("overflow on spanner-emulator")
class OverflowOnTheEmulatorTest {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    private static final int THREADS = 4;
    private static final long VALUES = 200;
    private static final long MAX = SequenceSettings.LARGEST_MAX_VALUE;

    private final List<SequenceRegistry> registries = new ArrayList<>();
    private SpannerSequenceStore store;

    @BeforeEach
    void createStore() {
        store = emulator.store("seqgen_sequences");
    }

    @AfterEach
    void closeRegistries() {
        registries.forEach(SequenceRegistry::close);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Strategy.class)
    @DisplayName("spanner-emulator: 4 threads on 2 registries race to Long.MAX_VALUE - 1: every value once, then"
            + " exhausted, and the row stops at the maximum + 1")
    void everyValueUpToTheMaximumIsIssuedOnceThenEveryCallerIsToldItIsExhausted(Strategy strategy) throws Exception {
        String name = "overflow-" + strategy.name().toLowerCase();
        long initial = MAX - VALUES + 1;
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(16).lowWatermark(4)
                .initialValue(initial).maxValue(MAX).acquireTimeout(SpannerEmulator.PATIENCE).build();
        List<Sequence> generators = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build();
            registries.add(registry);
            generators.add(registry.sequence(name));
        }
        Queue<String> exhaustedMessages = new ConcurrentLinkedQueue<>();

        long[] values = Concurrently.run(THREADS, thread -> {
            Sequence ids = generators.get(thread % 2);
            LongStream.Builder mine = LongStream.builder();
            ThreadLocalRandom random = ThreadLocalRandom.current();
            try {
                for (boolean bulk = true; ; ) {
                    int count = bulk && random.nextInt(3) == 0 ? 1 + random.nextInt(5) : 1;
                    try {
                        Arrays.stream(take(ids, count)).forEach(mine);
                    } catch (SequenceExhaustedException e) {
                        if (count == 1) {
                            throw e;
                        }
                        bulk = false; // fewer left than asked for
                    }
                }
            } catch (SequenceExhaustedException e) {
                exhaustedMessages.add(e.getMessage());
                assertThatThrownBy(() -> take(ids, 1)).as("and again").isInstanceOf(SequenceExhaustedException.class);
            }
            return mine.build().toArray();
        });

        long[] sorted = Concurrently.assertUnique(values);
        long discarded = generators.stream().mapToLong(s -> s.stats().discarded()).sum();
        assertThat(sorted[0]).isGreaterThanOrEqualTo(initial);
        assertThat(sorted[sorted.length - 1]).isLessThanOrEqualTo(MAX);
        assertThat(sorted.length + discarded).as("issued + discarded").isEqualTo(VALUES);
        assertThat(store.nextValue(name)).as("the row").hasValue(MAX + 1);
        assertThat(exhaustedMessages).hasSize(THREADS).allSatisfy(message -> assertThat(message)
                .contains("sequence '" + name + "'").contains(String.valueOf(MAX)));
        if (strategy == Strategy.SYNC) {
            Concurrently.assertContiguousFrom(initial, sorted);
        }
        System.out.printf("spanner-emulator %s: %d values up to %d issued once, %d discarded, row at %d%n", strategy,
                sorted.length, MAX, discarded, store.nextValue(name).orElseThrow());
    }

    @Test
    @DisplayName("spanner-emulator: a row edited to Long.MAX_VALUE is exhausted for every strategy, never wrapped")
    void aRowEditedToLongMaxValueIsExhaustedForEveryStrategy() throws Exception {
        store.createSequence("edited-to-max", 1);
        emulator.client().readWriteTransaction().run(tx -> tx.executeUpdate(Statement
                .of("UPDATE seqgen_sequences SET next_value = " + Long.MAX_VALUE + " WHERE name = 'edited-to-max'")));
        for (Strategy strategy : Strategy.values()) {
            for (long maxValue : new long[] {MAX, SequenceSettings.INT_MAX_VALUE}) {
                SequenceSettings settings = SequenceSettings.builder().strategy(strategy).maxValue(maxValue).build();
                try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
                    Sequence ids = registry.sequence("edited-to-max");
                    assertThatThrownBy(() -> take(ids, 3)).as(strategy + " up to " + maxValue)
                            .isInstanceOf(SequenceExhaustedException.class);
                }
            }
        }
        assertThat(store.nextValue("edited-to-max")).hasValue(Long.MAX_VALUE);
    }

    /** SYNC in a read-write transaction of the caller's; the other strategies without one. */
    private static long[] take(Sequence ids, int count) throws Exception {
        if (ids.strategy() != Strategy.SYNC) {
            return count == 1 ? new long[] {ids.next()} : ids.nextValues(count);
        }
        try {
            return emulator.client().readWriteTransaction().run(tx -> ids.nextValuesInTransaction(tx, count));
        } catch (SpannerException e) {
            if (e.getCause() instanceof SequenceExhaustedException exhausted) {
                throw exhausted;
            }
            throw e;
        }
    }
}
