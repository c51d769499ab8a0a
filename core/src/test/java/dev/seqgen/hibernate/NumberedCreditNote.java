package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A credit note with a gapless number of its own sequence, persisted in the same transactions as
 * {@link NumberedInvoice}: two SYNC sequences in one flush.
 */
@Entity
@Table(name = "numbered_credit_note")
public class NumberedCreditNote {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "numbered_credit_note_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(sequence = "credit_note_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false, unique = true)
    private Long number;

    /** Which transaction persisted the credit note. */
    private int transactionTag;

    protected NumberedCreditNote() {
    }

    NumberedCreditNote(int transactionTag) {
        this.transactionTag = transactionTag;
    }

    /** The number, or null before the flush that inserted the credit note. */
    Long number() {
        return number;
    }
}
