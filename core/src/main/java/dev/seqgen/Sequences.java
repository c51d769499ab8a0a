package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/** Creates the strategy implementation for a sequence, for {@link SequenceRegistry}. */
final class Sequences {

    private Sequences() {
    }

    /** Creates the row if it is missing, retrying transient store errors within the acquire timeout. */
    static void createRow(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        long deadline = ticker.read() + settings.acquireTimeout().toNanos();
        Backoff backoff = new Backoff();
        for (;;) {
            try {
                store.createSequence(name, settings);
                return;
            } catch (SequenceConfigurationException e) {
                throw e;
            } catch (RuntimeException e) {
                if (!(e instanceof SequenceStoreException failure && failure.isTransient())
                        || !backoff.fits(ticker.read(), deadline)) {
                    throw new SequenceUnavailableException(name, "could not create its row in the " + store.name()
                            + " store: " + e.getMessage(), e);
                }
                backoff.pause(name);
            }
        }
    }

    /** Creates and starts a sequence whose row exists. */
    static Sequence create(String name, SequenceSettings settings, SequenceStore store, Ticker ticker,
            Executor executor, SequenceMetricsTrackerFactory metrics) {
        settings.validateFor(name);
        AbstractSequence sequence = switch (settings.strategy()) {
            case SYNC -> new SyncSequence(name, settings, store, ticker);
            case ASYNC -> new AsyncSequence(name, settings, store, ticker, executor);
            case BATCH -> new BatchSequence(name, settings, store, ticker, executor);
            case ASYNC_BATCH -> new AsyncBatchSequence(name, settings, store, ticker, executor);
        };
        sequence.tracker(metrics.create(sequence, store));
        if (sequence instanceof AsyncBatchSequence asyncBatch) {
            asyncBatch.start();
        }
        // Block strategies map keys on their own hot path (docs/design.md#block-hand-off).
        KeyMapping mapping = KeyMapping.of(settings);
        return mapping == null || sequence instanceof BlockSequence ? sequence
                : new KeyMappedSequence(sequence, mapping);
    }

    /** Closes a sequence made by {@link #create}; null if it was closed already. */
    static @Nullable CloseReport closeAndReport(Sequence sequence) {
        return counter(sequence).closeAndReport();
    }

    /** {@return the strategy implementation of a sequence made by {@link #create}} */
    static AbstractSequence counter(Sequence sequence) {
        return (AbstractSequence) (sequence instanceof KeyMappedSequence mapped ? mapped.counter() : sequence);
    }
}
