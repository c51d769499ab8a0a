package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import org.hibernate.generator.Generator;
import org.hibernate.persister.entity.EntityPersister;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values a session's pending inserts need from one SYNC number sequence (or one series of it), and what one
 * insert of an entity type draws ({@link #draws}): the count {@link FlushReservations} reserves.
 */
final class PendingInserts {

    private final Sequence sequence;
    private long values;

    PendingInserts(Sequence sequence) {
        this.sequence = sequence;
    }

    void add(int more) {
        values += more;
    }

    /** @return the sequence the inserts draw from: a number's sequence, or one of its series */
    Sequence sequence() {
        return sequence;
    }

    int values() {
        return (int) Math.min(values, Integer.MAX_VALUE);
    }

    /** The SYNC number sequences an entity type's inserts draw from, how many values each, in attribute order. */
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

    /**
     * What one insert of an entity type draws from one sequence.
     *
     * @param generator one of the generators that draw from the sequence, to reach it
     * @param values how many values
     */
    record Draw(AbstractSeqgenGenerator<?> generator, int values) {
    }
}
