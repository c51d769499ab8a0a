package dev.seqgen.jmh.series;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import org.hibernate.annotations.TenantId;

/**
 * What both invoices of the benchmark carry: an id from seqgen's ASYNC_BATCH (known at {@code persist()}, no round
 * trip of its own; its blocks of 1000 are configured by {@link SeriesFixture}), the tenant of Hibernate's partitioned multi-tenancy and an amount. Only the gapless number differs.
 */
@MappedSuperclass
public abstract class Invoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "series_bench_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @TenantId
    @Column(name = "tenant", length = 16, nullable = false)
    private String tenant;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    protected Invoice() {
    }

    /** Sets the amount: a column the application writes, so that the insert is an invoice's, not an empty row. */
    void amountCents(long amountCents) {
        this.amountCents = amountCents;
    }

    /**
     * Returns the number Hibernate's flush gave the invoice.
     *
     * @return the gapless number, null before the flush
     */
    public abstract Long number();
}
