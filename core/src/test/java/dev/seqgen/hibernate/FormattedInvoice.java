package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDate;

/** An invoice whose number is formatted, per year of its own date: {@code INV-2026-000042}. */
@Entity
@Table(name = "formatted_invoice")
public class FormattedInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "formatted_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @Column(nullable = false)
    private LocalDate issueDate;

    @SeqgenNumber(sequence = "formatted_invoice_numbers", strategy = Strategy.SYNC, seriesBy = "issueDate:year",
            format = "INV-{issueDate:year}-{number:6}")
    @Column(nullable = false, updatable = false, length = 32)
    private String number;

    protected FormattedInvoice() {
    }

    FormattedInvoice(LocalDate issueDate) {
        this.issueDate = issueDate;
    }

    String number() {
        return number;
    }
}
