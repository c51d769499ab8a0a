package dev.seqgen.jmh.series;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** Gapless numbers on one row shared by every tenant ({@code perTenant = false}): the load's baseline. */
@Entity
@Table(name = "series_bench_shared_invoice")
public class SharedNumberedInvoice extends Invoice {

    /** The sequence of the numbers: one row for all tenants. */
    public static final String SEQUENCE = "series_bench_shared_numbers";

    @SeqgenNumber(sequence = SEQUENCE, strategy = Strategy.SYNC, perTenant = false)
    @Column(name = "number", nullable = false, updatable = false)
    private Long number;

    @Override
    public Long number() {
        return number;
    }
}
