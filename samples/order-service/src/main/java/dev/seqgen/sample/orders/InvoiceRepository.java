package dev.seqgen.sample.orders;

import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

interface InvoiceRepository extends JpaRepository<Invoice, Long> {

    boolean existsByOrderId(Long orderId);

    Optional<Invoice> findByNumber(Long number);
}
