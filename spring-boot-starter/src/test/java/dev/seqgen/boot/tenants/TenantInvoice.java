package dev.seqgen.boot.tenants;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDate;
import org.hibernate.annotations.TenantId;

/**
 * An invoice of a partitioned multi-tenant Spring Boot application: ids unique across tenants, a gapless number and
 * a formatted one per tenant and year of the invoice's date.
 */
@Entity
@Table(name = "seqgen_tenant_invoice")
public class TenantInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "seqgen_tenant_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @TenantId
    @Column(nullable = false)
    private String tenant;

    @Column(nullable = false)
    private LocalDate issueDate;

    @SeqgenNumber(sequence = "seqgen_tenant_invoice_numbers", strategy = Strategy.SYNC, seriesBy = "issueDate:year")
    @Column(nullable = false, updatable = false)
    private Long number;

    @SeqgenNumber(sequence = "seqgen_tenant_invoice_codes", strategy = Strategy.SYNC, seriesBy = "issueDate:year",
            format = "{tenant}-{issueDate:year}-{number:4}")
    @Column(nullable = false, updatable = false, length = 40)
    private String code;

    protected TenantInvoice() {
    }

    public TenantInvoice(LocalDate issueDate) {
        this.issueDate = issueDate;
    }

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }

    public String getCode() {
        return code;
    }
}
