package dev.seqgen.spanner.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** A credit note stored in Spanner with a gapless number of its own sequence, flushed with invoices. */
@Entity
public class SpannerNumberedCreditNote {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "numbered_credit_note_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(sequence = "spanner_credit_note_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false)
    private Long number;

    public Long getNumber() {
        return number;
    }
}
