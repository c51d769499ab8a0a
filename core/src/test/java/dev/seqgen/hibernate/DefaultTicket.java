package dev.seqgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Sets no attribute: everything comes from the registry's defaults. */
@Entity
@Table(name = "default_ticket")
public class DefaultTicket implements Ticket {

    @Id
    @GeneratedValue
    @SeqgenGenerator
    private Long id;

    @Override
    public long id() {
        return id;
    }
}
