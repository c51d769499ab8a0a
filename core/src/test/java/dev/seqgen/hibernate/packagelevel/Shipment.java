package dev.seqgen.hibernate.packagelevel;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An annotation on the entity class wins over the package one. */
@Entity
@Table(name = "shipment")
@SeqgenGenerator(strategy = Strategy.ASYNC)
public class Shipment {

    @Id
    @GeneratedValue
    private Long id;

    public Long getId() {
        return id;
    }
}
