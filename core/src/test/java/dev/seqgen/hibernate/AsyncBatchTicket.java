package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A {@code Long} id from an ASYNC_BATCH sequence named after the entity ({@code async_batch_ticket}). */
@Entity
@Table(name = "async_batch_ticket")
public class AsyncBatchTicket implements Ticket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(strategy = Strategy.ASYNC_BATCH)
    private Long id;

    private int worker;

    protected AsyncBatchTicket() {
    }

    AsyncBatchTicket(int worker) {
        this.worker = worker;
    }

    @Override
    public long id() {
        return id;
    }
}
