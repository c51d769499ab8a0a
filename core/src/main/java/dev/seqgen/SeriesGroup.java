package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTracker;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What the series of one sequence share in a registry: one metrics tracker (meters tagged by the sequence, never by
 * an unbounded key), and the counts of released series, so counters never go down. {@link #view()} is the
 * {@link Sequence} the meters are registered on: statistics summed over the series (open and released), highest
 * reserved and capacity used of the series nearest its maximum; it hands out no value.
 */
final class SeriesGroup {

    private final String name;
    private final SequenceSettings settings;
    /** The open series, for the statistics: read when a meter is, never on a caller's path. */
    private final Supplier<Iterable<SeriesSequence>> open;
    private final View view = new View();
    private SequenceMetricsTracker tracker = SequenceMetricsTracker.noop();

    private final LongAdder issued = new LongAdder();
    private final LongAdder reservations = new LongAdder();
    private final LongAdder reservationFailures = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder waits = new LongAdder();
    private final LongAdder discarded = new LongAdder();
    private final LongAdder lateRefills = new LongAdder();
    /** The highest value the released series had reserved, and its capacity used; guarded by this. */
    private long highestReserved = -1;
    private double capacityUsed;

    SeriesGroup(String name, SequenceSettings settings, Supplier<Iterable<SeriesSequence>> open) {
        this.name = name;
        this.settings = settings;
        this.open = open;
    }

    /** The sequence the metrics factory registers the series' meters on. */
    Sequence view() {
        return view;
    }

    /** Installs the tracker the factory made for {@link #view()}; once, before any series of the group opens. */
    void tracker(SequenceMetricsTracker shared) {
        this.tracker = shared;
    }

    /** The tracker of each series: the group's, without {@code close()} (the meters are shared). */
    SequenceMetricsTracker seriesTracker() {
        SequenceMetricsTracker shared = tracker;
        return shared == SequenceMetricsTracker.noop() ? shared : new SharedTracker(shared);
    }

    /** Ends the meters of the group, at the registry's close. */
    void closeTracker() {
        try {
            tracker.close();
        } catch (RuntimeException e) {
            AbstractSequence.LOG.log(System.Logger.Level.WARNING, "metrics tracker of the series of sequence '" + name
                    + "' failed in close", e);
        }
    }

    /**
     * Adds a released series' counts to the group's; the caller holds this group's monitor, as {@link #stats()}
     * does, so no reading counts the series twice or not at all.
     */
    void retire(SequenceStats released) {
        issued.add(released.issued());
        reservations.add(released.reservations());
        reservationFailures.add(released.reservationFailures());
        retries.add(released.retries());
        waits.add(released.waits());
        discarded.add(released.discarded());
        lateRefills.add(released.lateRefills());
        highestReserved = Math.max(highestReserved, released.highestReserved());
        capacityUsed = Math.max(capacityUsed, released.capacityUsed());
    }

    /** The sum of the group's statistics, see the class comment. */
    private synchronized SequenceStats stats() {
        long[] sum = {issued.sum(), reservations.sum(), reservationFailures.sum(), retries.sum(), waits.sum(),
            discarded.sum(), 0, 0, 0, lateRefills.sum(), highestReserved};
        double[] used = {capacityUsed};
        forEachOpen(stats -> {
            sum[0] += stats.issued();
            sum[1] += stats.reservations();
            sum[2] += stats.reservationFailures();
            sum[3] += stats.retries();
            sum[4] += stats.waits();
            sum[5] += stats.discarded();
            sum[6] += stats.remaining();
            sum[7] = Math.max(sum[7], stats.blockSize());
            sum[8] = Math.max(sum[8], stats.refillPoint());
            sum[9] += stats.lateRefills();
            sum[10] = Math.max(sum[10], stats.highestReserved());
            used[0] = Math.max(used[0], stats.capacityUsed());
        });
        long blockSize = sum[7] > 0 ? sum[7] : settings.blockSize();
        return new SequenceStats(name, settings.strategy(), sum[0], sum[1], sum[2], sum[3], sum[4], sum[5], -1, -1,
                sum[6], blockSize, sum[8], sum[9], sum[10], used[0]);
    }

    private void forEachOpen(Consumer<SequenceStats> action) {
        for (SeriesSequence series : open.get()) {
            Sequence sequence = series.sequence();
            if (sequence != null) {
                action.accept(sequence.stats());
            }
        }
    }

    /** The sequence of {@link #view()}: statistics only. */
    private final class View implements Sequence {

        @Override
        public String name() {
            return name;
        }

        @Override
        public Strategy strategy() {
            return settings.strategy();
        }

        @Override
        public SequenceSettings settings() {
            return settings;
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

        @Override
        public SequenceStats stats() {
            return SeriesGroup.this.stats();
        }

        @Override
        public void close() {
        }

        private UnsupportedOperationException servedBySeries() {
            return new UnsupportedOperationException("the series of sequence '" + name + "' are counted one by one:"
                    + " take values from SequenceRegistry.series(name, key); this is their statistics only");
        }

        @Override
        public String toString() {
            return "series of sequence '" + name + "'";
        }
    }

    /** The group's tracker as one series uses it: everything but its close. */
    private static final class SharedTracker implements SequenceMetricsTracker {

        private final SequenceMetricsTracker shared;

        SharedTracker(SequenceMetricsTracker shared) {
            this.shared = shared;
        }

        @Override
        public void recordReservation(long durationNanos, boolean success) {
            shared.recordReservation(durationNanos, success);
        }

        @Override
        public void recordRetry() {
            shared.recordRetry();
        }

        @Override
        public void recordWait(long durationNanos) {
            shared.recordWait(durationNanos);
        }

        @Override
        public void recordDiscarded(long count) {
            shared.recordDiscarded(count);
        }

        @Override
        public @Nullable Object captureContext() {
            return shared.captureContext();
        }

        @Override
        public Span start(Operation operation, @Nullable Object parentContext) {
            return shared.start(operation, parentContext);
        }
    }
}
