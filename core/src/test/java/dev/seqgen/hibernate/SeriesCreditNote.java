package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;

/**
 * A credit note numbered in the series of {@link SeriesInvoice} (per company and year), its date a timestamp where the
 * invoice's is a date: two tables, one gapless series per company and year.
 */
@Entity
@Table(name = "series_credit_note")
public class SeriesCreditNote {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "series_credit_note_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @Column(nullable = false)
    private String company;

    @Column(nullable = false)
    private LocalDateTime issuedAt;

    @SeqgenNumber(sequence = "series_invoice_numbers", strategy = Strategy.SYNC,
            seriesBy = { "company", "issuedAt:year" })
    @Column(nullable = false, updatable = false)
    private Long number;

    protected SeriesCreditNote() {
    }

    SeriesCreditNote(String company, LocalDateTime issuedAt) {
        this.company = company;
        this.issuedAt = issuedAt;
    }

    Long number() {
        return number;
    }
}
