package dev.seqgen.boot.data.jdbc.events;

import org.springframework.data.repository.ListCrudRepository;

/** The vouchers. */
public interface EventVoucherRepository extends ListCrudRepository<EventVoucher, Long> {
}
