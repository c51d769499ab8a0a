package dev.seqgen.sample.jdbc;

import org.springframework.data.repository.CrudRepository;

/** Invoices, with their lines: {@code save} and {@code saveAll} get their ids and numbers from seqgen. */
public interface InvoiceRepository extends CrudRepository<Invoice, Long> {
}
