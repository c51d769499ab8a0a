package dev.seqgen.boot.data.jdbc.slice;

import org.springframework.data.repository.ListCrudRepository;

/** The slice's repository. */
public interface SliceInvoiceRepository extends ListCrudRepository<SliceInvoice, Long> {
}
