package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A {@code Long} id from a BATCH sequence named after the entity ({@code batch_ticket}). */
@Entity
@Table(name = "batch_ticket")
public class BatchTicket implements Ticket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(strategy = Strategy.BATCH)
    private Long id;

    private int worker;

    protected BatchTicket() {
    }

    BatchTicket(int worker) {
        this.worker = worker;
    }

    @Override
    public long id() {
        return id;
    }
}
