package dev.seqgen.boot.data.jdbc.invoices;

import org.springframework.data.repository.ListCrudRepository;

/** The tickets' repository. */
public interface SeqgenJdbcTicketRepository extends ListCrudRepository<SeqgenJdbcTicket, Integer> {
}
