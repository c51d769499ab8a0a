package dev.seqgen.spanner.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** A ticket whose id seqgen serves from background-refilled blocks: its first id adopts the table's rows. */
@Entity
public class MockTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "mock_tickets", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    private String holder;

    protected MockTicket() {
    }

    MockTicket(String holder) {
        this.holder = holder;
    }

    Long getId() {
        return id;
    }
}
