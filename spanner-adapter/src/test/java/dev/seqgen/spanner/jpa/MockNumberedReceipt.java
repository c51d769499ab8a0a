package dev.seqgen.spanner.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/** A receipt with an assigned id and a gapless number of a second sequence, taken at flush. */
@Entity
public class MockNumberedReceipt {

    @Id
    private Long id;

    @SeqgenNumber(sequence = "mock_receipt_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false)
    private Long number;

    protected MockNumberedReceipt() {
    }

    MockNumberedReceipt(long id) {
        this.id = id;
    }

    Long getNumber() {
        return number;
    }
}
