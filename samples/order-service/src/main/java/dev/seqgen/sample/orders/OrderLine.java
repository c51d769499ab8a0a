package dev.seqgen.sample.orders;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import java.math.BigDecimal;

/**
 * A line of an order. Its id comes from {@code batch}: one reservation per block of 100 lines (configured:
 * {@code seqgen.sequences.order_lines.block-size} in {@code application.properties}); the caller
 * that finds the block empty reserves the next while the others wait for it (no background thread). Lines
 * are inserted in JDBC batches because their ids are known before the insert.
 */
@Entity
@Table(name = "order_lines")
public class OrderLine {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "order_lines", strategy = Strategy.BATCH)
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "order_id", nullable = false)
    private Order order;

    @Column(nullable = false, length = 100)
    private String product;

    @Column(nullable = false)
    private int quantity;

    @Column(nullable = false, precision = 12, scale = 2)
    private BigDecimal unitPrice;

    protected OrderLine() {
    }

    OrderLine(Order order, String product, int quantity, BigDecimal unitPrice) {
        this.order = order;
        this.product = product;
        this.quantity = quantity;
        this.unitPrice = unitPrice;
    }

    BigDecimal amount() {
        return unitPrice.multiply(BigDecimal.valueOf(quantity));
    }

    Long getId() {
        return id;
    }

    String getProduct() {
        return product;
    }

    int getQuantity() {
        return quantity;
    }

    BigDecimal getUnitPrice() {
        return unitPrice;
    }
}
