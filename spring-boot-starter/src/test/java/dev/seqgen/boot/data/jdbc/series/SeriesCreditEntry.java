package dev.seqgen.boot.data.jdbc.series;

import java.time.LocalDate;
import org.springframework.data.relational.core.mapping.Table;

/**
 * A credit entry numbered in the series of {@link SeriesLedgerEntry}, whose properties it maps in a table of its own:
 * two tables, one gapless series per company and year.
 */
@Table
public class SeriesCreditEntry extends SeriesLedgerEntry {

    public SeriesCreditEntry() {
    }

    public SeriesCreditEntry(String company, LocalDate issueDate) {
        super(company, issueDate);
    }
}
