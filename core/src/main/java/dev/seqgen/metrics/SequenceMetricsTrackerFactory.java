package dev.seqgen.metrics;

import dev.seqgen.Sequence;

/**
 * Creates the {@link SequenceMetricsTracker} of each sequence when the registry creates the sequence, and
 * may register gauges or function counters that read {@link Sequence#stats()}.
 */
@FunctionalInterface
public interface SequenceMetricsTrackerFactory {

    /**
     * Creates the tracker of a newly created sequence.
     *
     * @param sequence the sequence, whose {@code stats()} gauges may read
     * @param storeName the store's {@link dev.seqgen.spi.SequenceStore#name() name}, for a tag
     * @return the tracker
     */
    SequenceMetricsTracker create(Sequence sequence, String storeName);

    /**
     * Returns the factory that creates no-op trackers.
     *
     * @return the no-op factory
     */
    static SequenceMetricsTrackerFactory noop() {
        return (sequence, storeName) -> SequenceMetricsTracker.noop();
    }
}
