package dev.seqgen.sample.orders;

import java.time.LocalDate;
import java.util.Optional;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;

interface InvoiceRepository extends JpaRepository<Invoice, Long> {

    boolean existsByOrderId(Long orderId);

    Optional<Invoice> findByNumber(String number);

    Page<Invoice> findByCompany(String company, Pageable pageable);

    Page<Invoice> findByCompanyAndIssueDateBetween(String company, LocalDate from, LocalDate to, Pageable pageable);
}
