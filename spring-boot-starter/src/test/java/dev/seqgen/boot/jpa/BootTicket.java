package dev.seqgen.boot.jpa;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose id strategy is not in the code: it comes from {@code seqgen.sequences.boot_tickets.*}. */
@Entity
@Table(name = "seqgen_boot_ticket")
public class BootTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "boot_tickets")
    private Long id;

    public Long getId() {
        return id;
    }
}
