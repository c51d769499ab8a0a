package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import org.hibernate.generator.Generator;
import org.hibernate.persister.entity.EntityPersister;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** The values a session's pending inserts need from one SYNC number sequence or series, for a flush to reserve. */
final class PendingInserts {

    private final Sequence sequence;
    private long values;

    PendingInserts(Sequence sequence) {
        this.sequence = sequence;
    }

    void add(int more) {
        values += more;
    }

    Sequence sequence() {
        return sequence;
    }

    int values() {
        return (int) Math.min(values, Integer.MAX_VALUE);
    }

    /** What one insert of an entity type draws from each SYNC number sequence, in attribute order. */
    static Map<String, Draw> draws(EntityPersister persister) {
        Map<String, Draw> draws = new LinkedHashMap<>();
        for (Generator generator : persister.getEntityMetamodel().getGenerators()) {
            if (generator instanceof AbstractSeqgenGenerator<?> seqgen) {
                String sequence = seqgen.reservedAtFlush();
                if (sequence != null) {
                    draws.merge(sequence, new Draw(seqgen, 1),
                            (drawn, more) -> new Draw(drawn.generator(), drawn.values() + more.values()));
                }
            }
        }
        return Collections.unmodifiableMap(draws);
    }

    /** What one insert draws from one sequence, and one of the generators drawing from it. */
    record Draw(AbstractSeqgenGenerator<?> generator, int values) {
    }
}
