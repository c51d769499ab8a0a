package dev.seqgen.hibernate;

import org.hibernate.dialect.H2Dialect;
import org.hibernate.dialect.sequence.ANSISequenceSupport;
import org.hibernate.dialect.sequence.SequenceSupport;

/**
 * H2 whose sequences, as Hibernate's Spanner dialects declare theirs, cannot serve pooled blocks: where
 * Hibernate moves its own pooled optimizer to a table and leaves a custom one on the sequence.
 */
public class NoPooledSequencesH2Dialect extends H2Dialect {

    private static final SequenceSupport SEQUENCES = new ANSISequenceSupport() {
        @Override
        public boolean supportsPooledSequences() {
            return false;
        }
    };

    @Override
    public SequenceSupport getSequenceSupport() {
        return SEQUENCES;
    }
}
