package dev.seqgen.boot.data.jdbc.series;

import org.springframework.data.repository.ListCrudRepository;

/** The repository of {@link SeriesLedgerEntry}. */
public interface SeriesLedgerRepository extends ListCrudRepository<SeriesLedgerEntry, Long> {
}
