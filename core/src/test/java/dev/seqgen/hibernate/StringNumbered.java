package dev.seqgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** A mistake: a seqgen number on a String attribute. */
@Entity
public class StringNumbered {

    @Id
    @GeneratedValue
    private Long id;

    @SeqgenNumber
    private String code;
}
