package dev.seqgen.spanner.jpa;

import dev.seqgen.KeyOrder;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** A ticket whose id is a bit-reversed counter: its sequence adopts the table's keys when its row is created. */
@Entity
public class MockSpreadTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "mock_spread_tickets", strategy = Strategy.BATCH, keyOrder = KeyOrder.BIT_REVERSED)
    private Long id;

    private String holder;

    protected MockSpreadTicket() {
    }

    MockSpreadTicket(String holder) {
        this.holder = holder;
    }

    Long getId() {
        return id;
    }
}
