package dev.seqgen.metrics;

import dev.seqgen.Sequence;

/** Creates the {@link SequenceMetricsTracker} of each sequence, and may register meters reading its stats. */
@FunctionalInterface
public interface SequenceMetricsTrackerFactory {

    /** {@return the tracker of a newly created sequence}; {@code storeName} is the store's name, for a tag. */
    SequenceMetricsTracker create(Sequence sequence, String storeName);

    /** {@return the tracker of a new sequence served by {@code store}}; what the registry calls. */
    default SequenceMetricsTracker create(Sequence sequence, dev.seqgen.spi.SequenceStore store) {
        return create(sequence, store.name());
    }

    /**
     * Told once per sequence, when its first series opens, for one gauge of its open series (never a meter per series);
     * the series share one tracker, whose stats sum theirs. Default: nothing.
     */
    default void series(String sequence, java.util.function.IntSupplier openSeries) {
    }

    /** {@return the factory that creates no-op trackers} */
    static SequenceMetricsTrackerFactory noop() {
        return (sequence, storeName) -> SequenceMetricsTracker.noop();
    }
}
