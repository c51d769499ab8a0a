package dev.seqgen.boot.badnumber;

import dev.seqgen.hibernate.SeqgenNumber;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An entity with {@code @SeqgenNumber} on a String, which seqgen does not generate. */
@Entity
@Table(name = "seqgen_text_numbered_invoice")
public class TextNumberedInvoice {

    @Id
    @GeneratedValue
    private Long id;

    @SeqgenNumber
    private String number;

    public Long getId() {
        return id;
    }

    public String getNumber() {
        return number;
    }
}
