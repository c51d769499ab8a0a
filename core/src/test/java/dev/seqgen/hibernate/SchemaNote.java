package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A note numbered in the series of {@link SchemaDoc}: two tables, one gapless series per tenant. */
@Entity
@Table(name = "schema_note")
public class SchemaNote {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "schema_note_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(sequence = "schema_doc_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false)
    private Long number;

    private int tag;

    protected SchemaNote() {
    }

    SchemaNote(int tag) {
        this.tag = tag;
    }

    Long id() {
        return id;
    }

    Long number() {
        return number;
    }
}
