package dev.seqgen.spanner.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** An invoice stored in Spanner whose number is its id: gapless, taken in the session's own transaction. */
@Entity
public class SpannerInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "invoices", strategy = Strategy.SYNC)
    private Long number;

    private String customer;

    protected SpannerInvoice() {
    }

    public SpannerInvoice(String customer) {
        this.customer = customer;
    }

    public Long getNumber() {
        return number;
    }
}
