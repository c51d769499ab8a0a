package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Uses the sequence of {@link TunedTicket} with another strategy: a mistake seqgen reports at startup. */
@Entity
@Table(name = "conflicting_ticket")
public class ConflictingTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "tuned", strategy = Strategy.SYNC)
    private Long id;
}
