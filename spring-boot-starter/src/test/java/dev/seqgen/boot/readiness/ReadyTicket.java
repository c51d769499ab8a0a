package dev.seqgen.boot.readiness;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose sequence is mapped only, not configured under {@code seqgen.sequences}. */
@Entity
@Table(name = "seqgen_ready_ticket")
public class ReadyTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "ready_tickets")
    private Long id;

    public Long getId() {
        return id;
    }
}
