package dev.seqgen.boot.actuate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** What the health indicator and the endpoint share: which sequences to report, and how. */
final class KnownSequences {

    private KnownSequences() {
    }

    /**
     * The sequences to report, by name: those in use, and those configured by name but not used yet (null).
     */
    static Map<String, @Nullable Sequence> known(SequenceRegistry registry, Set<String> configured) {
        Map<String, @Nullable Sequence> known = new TreeMap<>();
        for (String name : new TreeSet<>(configured)) {
            known.put(name, null);
        }
        for (Sequence sequence : registry.sequences()) {
            known.put(sequence.name(), sequence);
        }
        return known;
    }
}
