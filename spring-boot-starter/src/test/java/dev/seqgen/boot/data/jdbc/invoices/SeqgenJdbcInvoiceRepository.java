package dev.seqgen.boot.data.jdbc.invoices;

import org.springframework.data.repository.ListCrudRepository;

/** The invoices' repository. */
public interface SeqgenJdbcInvoiceRepository extends ListCrudRepository<SeqgenJdbcInvoice, Long> {
}
