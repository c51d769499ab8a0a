package dev.seqgen.boot.data.jdbc.series;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import java.time.LocalDate;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate numbered per issuing company and year of its own date, gapless within each series. */
@Table
public class SeriesLedgerEntry {

    @Id
    @SeqgenValue(sequence = "seqgen_series_ledger_ids")
    private Long id;

    private String company;

    private LocalDate issueDate;

    @SeqgenValue(sequence = "seqgen_series_ledger_numbers", strategy = Strategy.SYNC,
            seriesBy = { "company", "issueDate:year" })
    private Long number;

    public SeriesLedgerEntry() {
    }

    public SeriesLedgerEntry(String company, LocalDate issueDate) {
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
