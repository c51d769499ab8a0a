package dev.seqgen.boot.virtualthreads;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose id strategy comes from {@code seqgen.sequences.vt_tickets.*}. */
@Entity
@Table(name = "seqgen_vt_ticket")
public class VirtualThreadTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "vt_tickets")
    private Long id;

    public Long getId() {
        return id;
    }
}
