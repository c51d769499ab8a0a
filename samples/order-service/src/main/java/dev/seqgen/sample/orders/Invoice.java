package dev.seqgen.sample.orders;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.OneToOne;
import jakarta.persistence.Table;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * An invoice, at most one per order. Its number comes from {@code sync}: the sequence row is incremented on
 * the session's own connection inside the transaction that inserts the invoice, so a rolled-back invoice
 * rolls its number back too and the committed numbers are 1, 2, 3, ... without a hole. The price: invoice
 * transactions queue on the sequence row, one at a time.
 */
@Entity
@Table(name = "invoices")
public class Invoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "invoices", strategy = Strategy.SYNC)
    private Long number;

    @OneToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "order_id", nullable = false, unique = true)
    private Order order;

    @Column(nullable = false, precision = 14, scale = 2)
    private BigDecimal total;

    @Column(nullable = false)
    private Instant issuedAt;

    protected Invoice() {
    }

    Invoice(Order order, Instant issuedAt) {
        this.order = order;
        this.total = order.total();
        this.issuedAt = issuedAt;
    }

    Long getNumber() {
        return number;
    }

    Order getOrder() {
        return order;
    }

    BigDecimal getTotal() {
        return total;
    }

    Instant getIssuedAt() {
        return issuedAt;
    }
}
