package dev.seqgen.boot.data.jdbc.spanner.beside;

import org.springframework.data.repository.CrudRepository;

public interface SideNoteRepository extends CrudRepository<SideNote, Long> {
}
