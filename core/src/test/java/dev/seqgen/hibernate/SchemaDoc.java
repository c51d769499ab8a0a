package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A document of an application whose tenants each have a schema of their own. */
@Entity
@Table(name = "schema_doc")
public class SchemaDoc {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "schema_doc_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(sequence = "schema_doc_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false)
    private Long number;

    private int tag;

    protected SchemaDoc() {
    }

    SchemaDoc(int tag) {
        this.tag = tag;
    }

    Long id() {
        return id;
    }

    Long number() {
        return number;
    }
}
