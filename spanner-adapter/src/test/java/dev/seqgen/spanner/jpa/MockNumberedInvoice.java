package dev.seqgen.spanner.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** An invoice with an assigned id and a gapless number taken at flush, for the mock server's request counts. */
@Entity
public class MockNumberedInvoice {

    @Id
    private Long id;

    @SeqgenNumber(sequence = "mock_invoice_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false)
    private Long number;

    protected MockNumberedInvoice() {
    }

    MockNumberedInvoice(long id) {
        this.id = id;
    }

    Long getNumber() {
        return number;
    }
}
