package dev.seqgen.metrics;

import dev.seqgen.Sequence;

/**
 * Creates the {@link SequenceMetricsTracker} of each sequence when the registry creates the sequence, and
 * may register gauges or function counters that read {@link Sequence#stats()}.
 */
@FunctionalInterface
public interface SequenceMetricsTrackerFactory {

    /**
     * {@return the tracker of a newly created sequence}, whose {@code stats()} gauges may read; {@code storeName} is
     * the store's {@link dev.seqgen.spi.SequenceStore#name() name}, for a tag.
     */
    SequenceMetricsTracker create(Sequence sequence, String storeName);

    /**
     * Creates the tracker of a newly created sequence served by {@code store}; what the registry calls. The
     * default calls {@link #create(Sequence, String)} with the store's name.
     */
    default SequenceMetricsTracker create(Sequence sequence, dev.seqgen.spi.SequenceStore store) {
        return create(sequence, store.name());
    }

    /**
     * Told once per sequence, when its first series opens, for one gauge of its open series (never a meter per
     * series: the tags would be unbounded). The series' events go to one tracker, created for a sequence whose
     * {@link Sequence#stats()} sums them. The default does nothing.
     *
     * @param sequence the sequence name
     * @param openSeries the number of its series open in the registry, read when the gauge is
     */
    default void series(String sequence, java.util.function.IntSupplier openSeries) {
    }

    /** {@return the factory that creates no-op trackers} */
    static SequenceMetricsTrackerFactory noop() {
        return (sequence, storeName) -> SequenceMetricsTracker.noop();
    }
}
