package dev.seqgen.hibernate.packagelevel;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Its own annotation wins over the package one. */
@Entity
@Table(name = "credit_note")
public class CreditNote {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "credit_notes", strategy = Strategy.SYNC)
    private Long id;

    public Long getId() {
        return id;
    }
}
