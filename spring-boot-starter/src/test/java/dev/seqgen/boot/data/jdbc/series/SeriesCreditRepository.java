package dev.seqgen.boot.data.jdbc.series;

import org.springframework.data.repository.ListCrudRepository;

/** The repository of {@link SeriesCreditEntry}. */
public interface SeriesCreditRepository extends ListCrudRepository<SeriesCreditEntry, Long> {
}
