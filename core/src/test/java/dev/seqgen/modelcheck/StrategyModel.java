package dev.seqgen.modelcheck;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStore;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The state a model-checked scenario works on: two registries over one store, as two JVMs on one row, each
 * with a sequence of small blocks near the maximum, and every value handed out recorded once. Operations
 * answer {@code true} unless the value they got had been handed out before, so a scenario's outcome can only
 * be explained by a sequential run (which always answers {@code true}) when no value was handed out twice.
 * Errors the contract allows (exhausted, unavailable, closed) answer {@code true} and hand out nothing.
 */
final class StrategyModel {

    static final String NAME = "model";
    static final long INITIAL = 1;
    /** Room for 12 values: a scenario of 3 threads × 3 calls of up to 2 values runs into the maximum. */
    static final long MAX = 12;

    private final SequenceStore store;
    private final SequenceSettings settings;
    /** Replaced by {@link #restart}, as a rolling deploy replaces an instance. */
    private volatile SequenceRegistry a;
    private final SequenceRegistry b;
    private final Set<Long> handedOut = ConcurrentHashMap.newKeySet();

    StrategyModel(SequenceStore store, Strategy strategy) {
        this.store = store;
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(2).lowWatermark(1)
                .initialValue(INITIAL).maxValue(MAX).acquireTimeout(Duration.ofSeconds(30)).build();
        // Store calls and refills run on the caller's thread, so that the model checker controls every thread
        // that touches the sequence's state; a background refill is then the triggering caller's own step,
        // interleaved with the other callers as a refill thread would be.
        this.settings = settings;
        this.a = registry();
        this.b = registry();
    }

    private SequenceRegistry registry() {
        return SequenceRegistry.builder(store).defaults(settings).executor(Runnable::run).build();
    }

    boolean next(boolean first) {
        try {
            return record(sequence(first).next());
        } catch (SequenceException | IllegalStateException allowed) {
            return true;
        }
    }

    boolean nextValues(boolean first, int count) {
        try {
            boolean fresh = true;
            for (long value : sequence(first).nextValues(count)) {
                fresh &= record(value);
            }
            return fresh;
        } catch (SequenceException | IllegalStateException allowed) {
            return true;
        }
    }

    boolean close(boolean first) {
        (first ? a : b).close();
        return true;
    }

    /**
     * Stops the first generator and starts a new one in its place, as a rolling deploy does: the stopped one gives
     * back or keeps its unused values, and the new one's first block may be a range the store kept.
     */
    boolean restartFirst() {
        SequenceRegistry stopped = a;
        stopped.close();
        a = registry();
        return true;
    }

    private Sequence sequence(boolean first) {
        return (first ? a : b).sequence(NAME);
    }

    private boolean record(long value) {
        if (value < INITIAL || value > MAX) {
            throw new AssertionError("value " + value + " outside [" + INITIAL + ", " + MAX + "]");
        }
        return handedOut.add(value);
    }

    /**
     * After the scenario: both generators closed (their unused values given back or kept where safe), the row must
     * lie above every value handed out, or a later generator would hand one out again; and no range the store keeps
     * for the fleet may hold a value handed out, or the generator that takes it would hand that value out again.
     */
    void validate() {
        a.close();
        b.close();
        long rowNext = store.nextValue(NAME).orElse(INITIAL);
        long highest = handedOut.stream().mapToLong(Long::longValue).max().orElse(INITIAL - 1);
        if (rowNext <= highest) {
            throw new AssertionError("the row's next value " + rowNext + " is not above value " + highest
                    + " already handed out: it would be handed out again");
        }
        for (ReservedRange kept : store.keptRanges(NAME)) {
            if (kept.end() > rowNext) {
                throw new AssertionError("kept range " + kept + " reaches the row's next value " + rowNext);
            }
            for (long value = kept.first(); value < kept.end(); value++) {
                if (handedOut.contains(value)) {
                    throw new AssertionError("kept range " + kept + " holds value " + value + ", handed out already");
                }
            }
        }
    }
}
