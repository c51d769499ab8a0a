package dev.seqgen.boot.actuate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** What the health indicator and the endpoint share: which sequences to report, and how. */
final class KnownSequences {

    private KnownSequences() {
    }

    /**
     * The sequences to report, by name: those in use, and those configured by name but not used yet (null).
     */
    static Map<String, Sequence> known(SequenceRegistry registry, Set<String> configured) {
        Map<String, Sequence> known = new TreeMap<>();
        for (String name : new TreeSet<>(configured)) {
            known.put(name, null);
        }
        for (Sequence sequence : registry.sequences()) {
            known.put(sequence.name(), sequence);
        }
        return known;
    }

    /**
     * The share of the range from initial to maximum value that lies below the row's {@code next_value}:
     * what every JVM together has reserved, from 0 to 1.
     */
    static double storeCapacityUsed(SequenceSettings settings, long nextValue) {
        double span = (double) (settings.maxValue() - settings.initialValue()) + 1;
        double used = (nextValue - settings.initialValue()) / span;
        return Math.max(0.0, Math.min(1.0, used));
    }
}
