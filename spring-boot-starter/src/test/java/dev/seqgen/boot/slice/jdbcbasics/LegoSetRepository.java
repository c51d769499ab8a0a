package dev.seqgen.boot.slice.jdbcbasics;

import org.springframework.data.repository.ListCrudRepository;

/** The lego sets. */
public interface LegoSetRepository extends ListCrudRepository<LegoSet, Integer> {
}
