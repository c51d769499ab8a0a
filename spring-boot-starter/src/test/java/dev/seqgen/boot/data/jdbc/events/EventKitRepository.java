package dev.seqgen.boot.data.jdbc.events;

import org.springframework.data.repository.ListCrudRepository;

/** The kits. */
public interface EventKitRepository extends ListCrudRepository<EventKit, Long> {
}
