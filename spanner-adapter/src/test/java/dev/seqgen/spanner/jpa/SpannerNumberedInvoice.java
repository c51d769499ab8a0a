package dev.seqgen.spanner.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** An invoice stored in Spanner with a surrogate id and a gapless number taken at flush. */
@Entity
public class SpannerNumberedInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "numbered_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(sequence = "spanner_invoice_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false)
    private Long number;

    protected SpannerNumberedInvoice() {
    }

    public Long getNumber() {
        return number;
    }
}
