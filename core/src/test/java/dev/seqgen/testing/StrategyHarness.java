package dev.seqgen.testing;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs one strategy from several independent registries on the same row (as several JVMs would), each
 * with several threads, then closes the registries and checks the two promises every strategy makes:
 * no value twice, and no value lost (every value between the initial value and the row's final
 * {@code next_value} was either issued or counted as discarded).
 */
public final class StrategyHarness {

    private StrategyHarness() {
    }

    /** Runs work inside a caller's transaction of the store under test, committing it. */
    @FunctionalInterface
    public interface TransactionRunner {
        long inTransaction(Function<Object, Long> work) throws Exception;
    }

    /** What a run issued. */
    public record Outcome(long[] sortedValues, long discarded, long finalNextValue) {
    }

    public static Outcome run(SequenceStore store, SequenceSettings settings, String name, int registries,
            int threadsPerRegistry, int valuesPerThread, TransactionRunner transactions) throws Exception {
        return run(store, settings, name, registries, threadsPerRegistry, valuesPerThread, transactions, true);
    }

    /**
     * As {@link #run(SequenceStore, SequenceSettings, String, int, int, int, TransactionRunner)}; {@code bulk} false
     * takes every value with {@code next()}, for a store that cannot serve several consecutive values to one ASYNC call.
     */
    public static Outcome run(SequenceStore store, SequenceSettings settings, String name, int registries,
            int threadsPerRegistry, int valuesPerThread, TransactionRunner transactions, boolean bulk) throws Exception {
        List<SequenceRegistry> opened = new ArrayList<>();
        List<Sequence> sequences = new ArrayList<>();
        for (int r = 0; r < registries; r++) {
            SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build();
            opened.add(registry);
            sequences.add(registry.sequence(name));
        }
        long[] values;
        try {
            values = Concurrently.run(registries * threadsPerRegistry, thread -> {
                Sequence sequence = sequences.get(thread % registries);
                long[] taken = new long[valuesPerThread];
                int i = 0;
                while (i < valuesPerThread) {
                    if (settings.strategy() == Strategy.SYNC) {
                        taken[i++] = transactions.inTransaction(sequence::nextInTransaction);
                    } else if (bulk && thread % 4 == 3 && valuesPerThread - i >= 7) {
                        // Some threads take bulk values, so bulk claims race single claims across blocks.
                        for (long v : sequence.nextValues(7)) {
                            taken[i++] = v;
                        }
                    } else {
                        taken[i++] = sequence.next();
                    }
                }
                return taken;
            });
        } finally {
            opened.forEach(SequenceRegistry::close);
        }
        long discarded = sequences.stream().mapToLong(s -> s.stats().discarded()).sum();
        long issued = sequences.stream().mapToLong(s -> s.stats().issued()).sum();
        long[] sorted = Concurrently.assertUnique(values);
        long finalNext = store.nextValue(name).orElseThrow();
        assertThat(issued).as("issued counters").isEqualTo(values.length);
        assertThat(sorted[0]).isGreaterThanOrEqualTo(settings.initialValue());
        assertThat(sorted[sorted.length - 1]).isLessThan(finalNext);
        long kept = store.keptRanges(name).stream().mapToLong(ReservedRange::count).sum();
        assertThat(finalNext - settings.initialValue() - values.length - kept)
                .as("values between the initial value and next_value that were neither issued, kept for the fleet nor"
                        + " counted discarded")
                .isEqualTo(discarded);
        return new Outcome(sorted, discarded, finalNext);
    }
}
