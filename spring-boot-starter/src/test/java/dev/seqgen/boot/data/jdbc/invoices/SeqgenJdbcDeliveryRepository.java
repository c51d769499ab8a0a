package dev.seqgen.boot.data.jdbc.invoices;

import org.springframework.data.repository.ListCrudRepository;

/** The deliveries' repository. */
public interface SeqgenJdbcDeliveryRepository extends ListCrudRepository<SeqgenJdbcDelivery, Long> {
}
