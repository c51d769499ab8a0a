package dev.seqgen;

import dev.seqgen.spi.ReservedRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * What closing one sequence did with the values it held and had not handed out: given back to the row, kept for the
 * fleet, or lost, with the reason. A sequence's series are summed into one report, naming the first
 * {@value #NAMED_SERIES} series that lost values.
 *
 * @param issued the values handed out in this JVM
 * @param actions what was done with each range, in order, as log text: {@code "gave back [101, 201) to the row"}
 * @param failure the first store failure met while releasing the values, or null
 * @param series how many series a report of series covers; 0 for a sequence's own report
 */
public record CloseReport(String sequence, Strategy strategy, long issued, long givenBack, long kept, long lost,
        List<String> actions, @Nullable Throwable failure, int series) {

    /** How many of the series that lost values a report of series names. */
    public static final int NAMED_SERIES = 10;

    public CloseReport {
        actions = List.copyOf(actions);
    }

    /** The report of one sequence's own row: {@code series} 0. */
    public CloseReport(String sequence, Strategy strategy, long issued, long givenBack, long kept, long lost,
            List<String> actions, @Nullable Throwable failure) {
        this(sequence, strategy, issued, givenBack, kept, lost, actions, failure, 0);
    }

    /** Sums the reports of a sequence's series, naming the first {@link #NAMED_SERIES} that lost values. */
    static CloseReport ofSeries(String sequence, List<CloseReport> reports) {
        long givenBack = sum(reports, CloseReport::givenBack);
        long kept = sum(reports, CloseReport::kept);
        List<CloseReport> losing = reports.stream().filter(report -> report.lost() > 0 || report.failed()).toList();
        List<String> actions = new ArrayList<>();
        if (givenBack > 0) {
            actions.add("gave back " + values(givenBack) + " to the rows of "
                    + reports.stream().filter(report -> report.givenBack() > 0).count() + " series");
        }
        if (kept > 0) {
            actions.add("kept " + values(kept) + " of " + reports.stream().filter(report -> report.kept() > 0).count()
                    + " series for the fleet (their rows have moved past them)");
        }
        losing.stream().limit(NAMED_SERIES).forEach(report -> actions.add("series '" + report.sequence() + "' "
                + String.join(", ", report.actions().stream().filter(action -> action.startsWith("lost")).toList())));
        if (losing.size() > NAMED_SERIES) {
            actions.add("and " + (losing.size() - NAMED_SERIES) + " more series lost values");
        }
        Throwable failure = losing.stream().map(CloseReport::failure).filter(Objects::nonNull).findFirst().orElse(null);
        return new CloseReport(sequence, reports.get(0).strategy(), sum(reports, CloseReport::issued), givenBack, kept,
                sum(reports, CloseReport::lost), actions, failure, reports.size());
    }

    private static long sum(List<CloseReport> reports, ToLongFunction<CloseReport> component) {
        return reports.stream().mapToLong(component).sum();
    }

    /** {@return whether the store failed while the values were released}: the report then belongs in a warning. */
    public boolean failed() {
        return failure != null;
    }

    /** {@return the report as one log line} */
    public String message() {
        String line = "sequence '" + sequence + "' (" + strategy.externalName() + ")"
                + (series > 0 ? ": " + series + " series" : "") + " closed after issuing " + values(issued);
        if (actions.isEmpty()) {
            return line + (series > 0 ? "; they held no values" : "; it held no values");
        }
        return line + ": " + String.join("; ", actions) + (lost == 0 ? "; lost nothing" : "");
    }

    private static String values(long count) {
        return count + " value" + (count == 1 ? "" : "s");
    }

    /** Collects a report while a sequence closes; used by one thread at a time. */
    static final class Collector {

        private final String sequence;
        private final Strategy strategy;
        private long givenBack;
        private long kept;
        private long lost;
        private final List<String> actions = new ArrayList<>();
        private @Nullable Throwable failure;

        Collector(String sequence, Strategy strategy) {
            this.sequence = sequence;
            this.strategy = strategy;
        }

        void givenBack(ReservedRange range) {
            givenBack += range.count();
            actions.add("gave back " + text(range) + " to the row");
        }

        void kept(ReservedRange range) {
            kept += range.count();
            actions.add("kept " + text(range) + " for the fleet (the row has moved past it)");
        }

        void lost(ReservedRange range, String why, @Nullable Throwable error) {
            lost += range.count();
            actions.add("lost " + text(range) + " (" + values(range.count()) + "): " + why);
            if (failure == null && error != null) {
                failure = error;
            }
        }

        void note(String action) {
            actions.add(action);
        }

        CloseReport build(long issued) {
            return new CloseReport(sequence, strategy, issued, givenBack, kept, lost, actions, failure);
        }

        private static String text(ReservedRange range) {
            return "[" + range.first() + ", " + range.end() + ")";
        }
    }
}
