package dev.seqgen.boot.adoption;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * An entity of an existing application whose {@code Integer} ids came from {@code IDENTITY}; adopting seqgen
 * took the annotation below and nothing else ({@code @GeneratedValue(strategy = IDENTITY)} became
 * {@code @GeneratedValue @SeqgenGenerator}).
 */
@Entity
@Table(name = "adopt_customer")
public class Customer {

    @Id
    @GeneratedValue
    @SeqgenGenerator
    private Integer id;

    private String name;

    protected Customer() {
    }

    Customer(String name) {
        this.name = name;
    }

    Integer id() {
        return id;
    }
}
