package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A {@code Long} id from an ASYNC sequence named after the entity ({@code async_ticket}). */
@Entity
@Table(name = "async_ticket")
public class AsyncTicket implements Ticket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(strategy = Strategy.ASYNC)
    private Long id;

    private int worker;

    protected AsyncTicket() {
    }

    AsyncTicket(int worker) {
        this.worker = worker;
    }

    @Override
    public long id() {
        return id;
    }
}
