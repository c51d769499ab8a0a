package dev.seqgen.internal;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Ticker;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.spi.SequenceStore;

import java.util.concurrent.Executor;

/** Creates the strategy implementation for a sequence. Not public API: use {@code SequenceRegistry}. */
public final class Sequences {

    private Sequences() {
    }

    /**
     * Creates a sequence whose row already exists in the store.
     *
     * @param name the validated sequence name
     * @param settings its settings
     * @param store the store holding its row
     * @param ticker the time source
     * @param executor runs ASYNC_BATCH background refills
     * @param metrics creates the sequence's metrics tracker
     * @return the sequence, started
     */
    public static Sequence create(String name, SequenceSettings settings, SequenceStore store, Ticker ticker,
            Executor executor, SequenceMetricsTrackerFactory metrics) {
        AbstractSequence sequence = switch (settings.strategy()) {
            case SYNC -> new SyncSequence(name, settings, store, ticker);
            case ASYNC -> new AsyncSequence(name, settings, store, ticker);
            case BATCH -> new BatchSequence(name, settings, store, ticker);
            case ASYNC_BATCH -> new AsyncBatchSequence(name, settings, store, ticker, executor);
        };
        sequence.tracker(metrics.create(sequence, store.name()));
        if (sequence instanceof AsyncBatchSequence asyncBatch) {
            asyncBatch.start();
        }
        return sequence;
    }
}
