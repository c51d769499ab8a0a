package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A document numbered in one gapless series shared by all tenants ({@code perTenant = false}). */
@Entity
@Table(name = "shared_doc")
public class SharedNumberDoc {

    @Id
    private Long id;

    @SeqgenNumber(sequence = "shared_doc_numbers", strategy = Strategy.SYNC, perTenant = false)
    @Column(nullable = false, updatable = false)
    private Long number;

    protected SharedNumberDoc() {
    }
}
