package dev.seqgen.boot.slice.kits;

import org.springframework.data.repository.ListCrudRepository;

/** The slices' repository. */
public interface SliceKitRepository extends ListCrudRepository<SliceKit, Long> {
}
