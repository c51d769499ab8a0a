package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An invoice whose number is gapless: SYNC, taken in the transaction that persists the invoice. */
@Entity
@Table(name = "invoice")
public class Invoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "invoices", strategy = Strategy.SYNC)
    private Long number;

    /** Which transaction persisted the invoice. */
    private int transactionTag;

    protected Invoice() {
    }

    Invoice(int transactionTag) {
        this.transactionTag = transactionTag;
    }

    long number() {
        return number;
    }
}
