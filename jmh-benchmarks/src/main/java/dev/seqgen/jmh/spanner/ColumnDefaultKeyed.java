package dev.seqgen.jmh.spanner;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;

/**
 * Keys from Spanner itself: the column's default, {@code GET_NEXT_SEQUENCE_VALUE} of a bit-reversed sequence,
 * read back from the insert ({@code THEN RETURN}).
 */
@Entity
public class ColumnDefaultKeyed implements Keyed {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    private String payload;

    protected ColumnDefaultKeyed() {
    }

    ColumnDefaultKeyed(String payload) {
        this.payload = payload;
    }

    @Override
    public Long id() {
        return id;
    }
}
