package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Sets some attributes, for the tests of what configuration overrides and fills. */
@Entity
@Table(name = "tuned_ticket")
public class TunedTicket implements Ticket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "tuned", strategy = Strategy.BATCH, initialValue = 100)
    private Long id;

    @Override
    public long id() {
        return id;
    }
}
