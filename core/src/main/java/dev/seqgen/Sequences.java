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

    /**
     * Creates the sequence's row if it is missing, retrying transient store errors (two generators creating
     * a row at once under SERIALIZABLE isolation, a lost connection) with backoff within the acquire timeout.
     *
     * @param name the validated sequence name
     * @param settings its settings, for the initial value and the acquire timeout
     * @param store the store
     * @param ticker the time source
     * @throws SequenceUnavailableException if the row could not be created
     * @throws SequenceConfigurationException if the store cannot serve the settings
     */
    static void createRow(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        long deadline = ticker.read() + settings.acquireTimeout().toNanos();
        Backoff backoff = new Backoff();
        for (;;) {
            try {
                store.createSequence(name, settings);
                return;
            } catch (SequenceStoreException e) {
                if (!e.isTransient() || !backoff.fits(ticker.read(), deadline)) {
                    throw cannotCreate(name, store, e);
                }
                backoff.pause(name);
            } catch (SequenceConfigurationException e) {
                throw e;
            } catch (RuntimeException e) {
                throw cannotCreate(name, store, e);
            }
        }
    }

    private static SequenceUnavailableException cannotCreate(String name, SequenceStore store, RuntimeException e) {
        return new SequenceUnavailableException(name, "could not create its row in the " + store.name() + " store: "
                + e.getMessage(), e);
    }

    /**
     * Creates a sequence whose row already exists in the store.
     *
     * @param name the validated sequence name
     * @param settings its settings
     * @param store the store holding its row
     * @param ticker the time source
     * @param executor runs the store calls of ASYNC, BATCH and ASYNC_BATCH, which callers wait for until their
     *     acquire timeout
     * @param metrics creates the sequence's metrics tracker
     * @return the sequence, started
     */
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
        // Block strategies map their own values on their hot path (BlockSequence); a wrapper there would cost a
        // dependent load per value (see its design comment).
        KeyMapping mapping = KeyMapping.of(settings);
        return mapping == null || sequence instanceof BlockSequence ? sequence
                : new KeyMappedSequence(sequence, mapping);
    }

    /**
     * Closes a sequence the registry made and returns what became of the values it held.
     *
     * @param sequence a sequence made by {@link #create}
     * @return the report, or null if the sequence was closed already
     */
    static @Nullable CloseReport closeAndReport(Sequence sequence) {
        Sequence counter = sequence instanceof KeyMappedSequence mapped ? mapped.counter() : sequence;
        return ((AbstractSequence) counter).closeAndReport();
    }
}
