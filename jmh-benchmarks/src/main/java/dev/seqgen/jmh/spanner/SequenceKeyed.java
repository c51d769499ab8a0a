package dev.seqgen.jmh.spanner;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;

/**
 * Keys from Hibernate's sequence generator over a bit-reversed Spanner sequence: one
 * {@code GET_NEXT_SEQUENCE_VALUE} query per {@code persist()} ({@code allocationSize = 1}, the only size a
 * bit-reversed sequence allows).
 */
@Entity
public class SequenceKeyed implements Keyed {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "sequence_keyed")
    @SequenceGenerator(name = "sequence_keyed", sequenceName = "sequence_keyed_seq", allocationSize = 1)
    private Long id;

    private String payload;

    protected SequenceKeyed() {
    }

    SequenceKeyed(String payload) {
        this.payload = payload;
    }

    @Override
    public Long id() {
        return id;
    }
}
