package dev.seqgen.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A mistake seqgen must report at startup: it generates numbers, not strings. */
@Entity
@Table(name = "string_id_entity")
public class StringIdEntity {

    @Id
    @SeqgenGenerator
    private String code;
}
