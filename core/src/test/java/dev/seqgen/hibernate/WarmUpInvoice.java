package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDate;
import org.hibernate.annotations.TenantId;

/**
 * An invoice of Hibernate's partitioned multi-tenancy numbered per tenant and year of its date, in blocks: the
 * series a start-up warms up ({@code seqgen.series.warm-up.warm_invoice_numbers=acme/2026}).
 */
@Entity
@Table(name = "warm_invoice")
public class WarmUpInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "warm_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @TenantId
    @Column(nullable = false)
    private String tenant;

    @Column(nullable = false)
    private LocalDate issueDate;

    @SeqgenNumber(sequence = "warm_invoice_numbers", strategy = Strategy.BATCH,
            seriesBy = "issueDate:year")
    @Column(nullable = false, updatable = false)
    private Long number;

    protected WarmUpInvoice() {
    }

    WarmUpInvoice(LocalDate issueDate) {
        this.issueDate = issueDate;
    }

    Long number() {
        return number;
    }
}
