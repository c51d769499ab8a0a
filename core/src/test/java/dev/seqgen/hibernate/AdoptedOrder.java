package dev.seqgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose table already held rows (ids assigned before) when it was switched to seqgen. */
@Entity
@Table(name = "adopted_order")
public class AdoptedOrder implements Ticket {

    @Id
    @SeqgenGenerator
    private Long id;

    @Override
    public long id() {
        return id;
    }
}
