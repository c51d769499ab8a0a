package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDate;

/** An invoice numbered per issuing company and fiscal year of its own date: gapless within each series. */
@Entity
@Table(name = "series_invoice")
public class SeriesInvoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "series_invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @Column(nullable = false)
    private String company;

    @Column(nullable = false)
    private LocalDate issueDate;

    @SeqgenNumber(sequence = "series_invoice_numbers", strategy = Strategy.SYNC,
            seriesBy = { "company", "issueDate:year" })
    @Column(nullable = false, updatable = false)
    private Long number;

    protected SeriesInvoice() {
    }

    SeriesInvoice(String company, LocalDate issueDate) {
        this.company = company;
        this.issueDate = issueDate;
    }

    Long number() {
        return number;
    }
}
