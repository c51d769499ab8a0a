package dev.seqgen;

import dev.seqgen.spi.ReservedRange;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What closing one sequence did with the values it held and had not handed out: given back to the row (the store's
 * compare-and-set succeeded: nobody reserved after this instance), kept for the fleet (another instance reserved
 * after it; the store hands the range out again, once, as a later instance's first block), or lost, with the reason.
 * {@link SequenceRegistry#closeAndReport()} returns one per sequence so that a framework can log them where the
 * application's log still listens; {@link SequenceRegistry#close()} logs them itself.
 *
 * @param sequence the sequence name
 * @param strategy its strategy
 * @param issued the values it handed out in this JVM
 * @param givenBack how many values went back to the row
 * @param kept how many values were kept for the fleet
 * @param lost how many values will never be handed out
 * @param actions what was done with each range, in order, as log text: {@code "gave back [101, 201) to the row"}
 * @param failure the first store failure met while releasing the values, or null
 */
public record CloseReport(String sequence, Strategy strategy, long issued, long givenBack, long kept, long lost,
        List<String> actions, @Nullable Throwable failure) {

    /**
     * Copies the actions.
     */
    public CloseReport {
        actions = List.copyOf(actions);
    }

    /**
     * Whether the store failed while the values were released: the report then belongs in a warning.
     *
     * @return whether {@link #failure()} is set
     */
    public boolean failed() {
        return failure != null;
    }

    /**
     * Returns the report as one log line, such as {@code sequence 'orders' (async-batch) closed after issuing 412
     * values: gave back [413, 1001) to the row; lost nothing}.
     *
     * @return the line
     */
    public String message() {
        StringBuilder line = new StringBuilder("sequence '").append(sequence).append("' (")
                .append(strategy.externalName()).append(") closed after issuing ").append(issued).append(" value")
                .append(issued == 1 ? "" : "s");
        if (actions.isEmpty()) {
            return line.append("; it held no values").toString();
        }
        line.append(": ").append(String.join("; ", actions));
        if (lost == 0) {
            line.append("; lost nothing");
        }
        return line.toString();
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
            actions.add("kept " + text(range) + " for the fleet (another instance reserved after this one)");
        }

        void lost(ReservedRange range, String why, @Nullable Throwable error) {
            lost += range.count();
            actions.add("lost " + text(range) + " (" + range.count() + " value" + (range.count() == 1 ? "" : "s")
                    + "): " + why);
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
