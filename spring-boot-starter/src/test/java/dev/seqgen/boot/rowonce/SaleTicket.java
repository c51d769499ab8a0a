package dev.seqgen.boot.rowonce;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose sequence starts at the annotation's initial value, another setting of it tuned by a property. */
@Entity
@Table(name = "seqgen_sale_ticket")
public class SaleTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "ticket_sale_seq", initialValue = 50000)
    private Long id;

    public Long getId() {
        return id;
    }
}
