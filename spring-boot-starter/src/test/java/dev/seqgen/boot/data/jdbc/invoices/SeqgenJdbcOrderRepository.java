package dev.seqgen.boot.data.jdbc.invoices;

import org.springframework.data.repository.ListCrudRepository;

/** The orders' repository. */
public interface SeqgenJdbcOrderRepository extends ListCrudRepository<SeqgenJdbcOrder, Long> {
}
