package dev.seqgen.sample.orders;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
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
 * An invoice, at most one per order. Its id is a surrogate from {@code async-batch}; its number, the one
 * printed on it, comes from {@code sync} through {@link SeqgenNumber}: the sequence row is incremented on the
 * session's own connection right before the invoice's INSERT, at flush, inside the transaction that inserts it.
 * A rolled-back invoice rolls its number back too, so the committed numbers are 1, 2, 3, ... without a hole, and
 * the row is locked only from the flush to the commit, not for the whole transaction.
 */
@Entity
@Table(name = "invoices")
public class Invoice {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "invoice_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(sequence = "invoices", strategy = Strategy.SYNC)
    @Column(nullable = false, unique = true, updatable = false)
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

    Invoice(Order order, BigDecimal total, Instant issuedAt) {
        this.order = order;
        this.total = total;
        this.issuedAt = issuedAt;
    }

    Long getId() {
        return id;
    }

    /** The invoice number: null until the invoice's insert has been flushed. */
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
