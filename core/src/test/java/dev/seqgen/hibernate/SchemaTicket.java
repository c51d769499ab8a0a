package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A ticket of an application whose tenants each have a schema or database of their own, with gapless ids. */
@Entity
@Table(name = "schema_ticket")
public class SchemaTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "schema_ticket_ids", strategy = Strategy.SYNC)
    private Long id;

    Long id() {
        return id;
    }
}
