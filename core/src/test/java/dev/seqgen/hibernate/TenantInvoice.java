package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.TenantId;

/**
 * An invoice of Hibernate's partitioned multi-tenancy: ids unique across tenants, numbers gapless per tenant (the
 * default of {@code @SeqgenNumber} on an entity with {@code @TenantId}).
 */
@Entity
@Table(name = "tenant_invoice")
public class TenantInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "tenant_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @TenantId
    @Column(nullable = false)
    private String tenant;

    @SeqgenNumber(sequence = "tenant_invoice_numbers", strategy = Strategy.SYNC)
    @Column(nullable = false, updatable = false)
    private Long number;

    private int tag;

    protected TenantInvoice() {
    }

    TenantInvoice(int tag) {
        this.tag = tag;
    }

    Long id() {
        return id;
    }

    Long number() {
        return number;
    }

    String tenant() {
        return tenant;
    }
}
