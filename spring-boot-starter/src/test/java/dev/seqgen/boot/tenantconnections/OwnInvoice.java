package dev.seqgen.boot.tenantconnections;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDate;

/**
 * An invoice of a Spring Boot application whose tenants each have a schema or a database of their own: ids, a
 * gapless number and a formatted one counted per tenant (the session's tenant), the numbers per year of the
 * invoice's date.
 */
@Entity
@Table(name = "seqgen_own_invoice")
public class OwnInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "seqgen_own_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @Column(nullable = false)
    private LocalDate issueDate;

    @SeqgenNumber(sequence = "seqgen_own_invoice_numbers", strategy = Strategy.SYNC, seriesBy = "issueDate:year")
    @Column(nullable = false, updatable = false)
    private Long number;

    @SeqgenNumber(sequence = "seqgen_own_invoice_codes", strategy = Strategy.SYNC, seriesBy = "issueDate:year",
            format = "{tenant}-{issueDate:year}-{number:4}")
    @Column(nullable = false, updatable = false, length = 40)
    private String code;

    protected OwnInvoice() {
    }

    public OwnInvoice(LocalDate issueDate) {
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
