package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;

import java.util.function.Supplier;

/**
 * What the series of one sequence share in a registry: one metrics tracker (meters tagged by the sequence, never by a
 * key) and the counts of released series, so counters never go down. The group is the {@link Sequence} the meters are
 * registered on: its statistics sum those of its series, open and released; it hands out no value.
 */
final class SeriesGroup extends NamedSequence {

    /** Read when a meter is, never on a caller's path. */
    private final Supplier<Iterable<SeriesSequence>> open;
    private SequenceMetricsTracker tracker = SequenceMetricsTracker.noop();
    @GuardedBy("this")
    private SequenceStats retired;

    SeriesGroup(String name, SequenceSettings settings, Supplier<Iterable<SeriesSequence>> open) {
        super(name, settings);
        this.open = open;
        this.retired = SequenceStats.none(name, settings.strategy(), 0);
    }

    Sequence view() {
        return this;
    }

    /** Installs the tracker the factory made for {@link #view()}; once, before any series of the group opens. */
    void tracker(SequenceMetricsTracker shared) {
        this.tracker = shared;
    }

    /** The tracker of each series: the group's, without {@code close()} (the meters are shared). */
    SequenceMetricsTracker seriesTracker() {
        SequenceMetricsTracker shared = tracker;
        return shared == SequenceMetricsTracker.noop() ? shared : new GuardedMetricsTracker(shared, false);
    }

    /** At the registry's close; the registry installs a guarded tracker. */
    void closeTracker() {
        tracker.close();
    }

    /** Adds a released series' counts; the caller holds this monitor, so no reading counts them twice or not at all. */
    void retire(SequenceStats released) {
        retired = retired.plus(released, false);
    }

    /** The open series' block size is their largest (SYNC's 1), the configured one when none is open. */
    @Override
    public synchronized SequenceStats stats() {
        SequenceStats sum = retired;
        for (SeriesSequence series : open.get()) {
            Sequence sequence = series.sequence();
            if (sequence != null) {
                sum = sum.plus(sequence.stats(), true);
            }
        }
        return sum.blockSize() > 0 ? sum : sum.plus(SequenceStats.none(name, strategy(), settings.blockSize()), true);
    }

    @Override
    public long next() {
        throw servedBySeries();
    }

    @Override
    public long[] nextValues(int count) {
        throw servedBySeries();
    }

    @Override
    public long nextInTransaction(Object transaction) {
        throw servedBySeries();
    }

    @Override
    public long[] nextValuesInTransaction(Object transaction, int count) {
        throw servedBySeries();
    }

    private UnsupportedOperationException servedBySeries() {
        return new UnsupportedOperationException("the series of sequence '" + name + "' are counted one by one:"
                + " take values from SequenceRegistry.series(name, key); this is their statistics only");
    }

    /** Does nothing: the registry ends the meters and the series close on their own. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "series of sequence '" + name + "'";
    }
}
