package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An invoice with a surrogate id, known at persist(), and a gapless business number taken at flush (SYNC on a
 * non-id attribute).
 */
@Entity
@Table(name = "numbered_invoice")
public class NumberedInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "numbered_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(sequence = "invoice_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false, unique = true)
    private Long number;

    /** Which transaction persisted the invoice. */
    private int transactionTag;

    protected NumberedInvoice() {
    }

    NumberedInvoice(int transactionTag) {
        this.transactionTag = transactionTag;
    }

    Long id() {
        return id;
    }

    int transactionTag() {
        return transactionTag;
    }

    /** The number, or null before the flush that inserted the invoice. */
    Long number() {
        return number;
    }
}
