package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A {@code Long} id from a SYNC sequence named after the entity ({@code sync_ticket}). */
@Entity
@Table(name = "sync_ticket")
public class SyncTicket implements Ticket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(strategy = Strategy.SYNC)
    private Long id;

    private int worker;

    protected SyncTicket() {
    }

    SyncTicket(int worker) {
        this.worker = worker;
    }

    @Override
    public long id() {
        return id;
    }
}
