package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * A document numbered in one gapless series shared by all tenants ({@code perTenant = false}), starting at the
 * initial value it sets, as it must where each tenant has a schema or database of its own.
 */
@Entity
@Table(name = "shared_doc")
public class SharedStartDoc {

    @Id
    private Long id;

    @SeqgenNumber(sequence = "shared_start_numbers", strategy = Strategy.SYNC, perTenant = false,
            initialValue = 1000)
    @Column(nullable = false, updatable = false)
    private Long number;

    protected SharedStartDoc() {
    }

    SharedStartDoc(long id) {
        this.id = id;
    }

    Long number() {
        return number;
    }
}
