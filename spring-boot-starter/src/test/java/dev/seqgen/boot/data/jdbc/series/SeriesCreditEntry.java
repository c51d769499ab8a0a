package dev.seqgen.boot.data.jdbc.series;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import java.time.LocalDate;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A credit entry numbered in the series of {@link SeriesLedgerEntry}: two tables, one gapless series per company and
 * year.
 */
@Table
public class SeriesCreditEntry {

    @Id
    @SeqgenValue(sequence = "seqgen_series_credit_ids")
    private Long id;

    private String company;

    private LocalDate issueDate;

    @SeqgenValue(sequence = "seqgen_series_ledger_numbers", strategy = Strategy.SYNC,
            seriesBy = { "company", "issueDate:year" })
    private Long number;

    public SeriesCreditEntry() {
    }

    public SeriesCreditEntry(String company, LocalDate issueDate) {
        this.company = company;
        this.issueDate = issueDate;
    }

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }
}
