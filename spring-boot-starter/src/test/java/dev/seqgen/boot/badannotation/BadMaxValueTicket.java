package dev.seqgen.boot.badannotation;

import dev.seqgen.hibernate.SeqgenGenerator;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity whose {@code @SeqgenGenerator} holds a value seqgen rejects: a maximum value of 0. */
@Entity
@Table(name = "seqgen_bad_max_value_ticket")
public class BadMaxValueTicket {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "bad_tickets", maxValue = 0)
    private Long id;

    public Long getId() {
        return id;
    }
}
