package dev.seqgen.jmh.series;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** Gapless numbers per tenant: each tenant's series is a row of its own ({@code series_bench_numbers#tenant}). */
@Entity
@Table(name = "series_bench_tenant_invoice")
public class TenantNumberedInvoice extends Invoice {

    /** The sequence of the numbers; each tenant's series is its row {@code series_bench_numbers#tenant}. */
    public static final String SEQUENCE = "series_bench_numbers";

    @SeqgenNumber(sequence = SEQUENCE, strategy = Strategy.SYNC)
    @Column(name = "number", nullable = false, updatable = false)
    private Long number;

    @Override
    public Long number() {
        return number;
    }
}
