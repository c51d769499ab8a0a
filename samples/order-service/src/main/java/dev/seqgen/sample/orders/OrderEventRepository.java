package dev.seqgen.sample.orders;

import org.springframework.data.jpa.repository.JpaRepository;

interface OrderEventRepository extends JpaRepository<OrderEvent, Long> {
}
