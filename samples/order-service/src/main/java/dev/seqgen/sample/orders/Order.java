package dev.seqgen.sample.orders;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OneToOne;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An order. Its id comes from {@code async-batch}: orders are the hot path, and a block reserved ahead in
 * the background means creating one normally costs no round trip to the sequence table. The price: ids are
 * ordered per JVM only, and a stopped JVM leaves the unused part of its blocks as gaps.
 */
@Entity
@Table(name = "orders")
public class Order {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "orders", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @Column(nullable = false, length = 100)
    private String customer;

    @Column(nullable = false)
    private Instant createdAt;

    @OneToMany(mappedBy = "order", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("id")
    private List<OrderLine> lines = new ArrayList<>();

    @OneToMany(mappedBy = "order", cascade = CascadeType.ALL, orphanRemoval = true)
    @OrderBy("id")
    private List<OrderEvent> events = new ArrayList<>();

    @OneToOne(mappedBy = "order")
    private Invoice invoice;

    protected Order() {
    }

    Order(String customer, Instant createdAt) {
        this.customer = customer;
        this.createdAt = createdAt;
    }

    void addLine(String product, int quantity, BigDecimal unitPrice) {
        lines.add(new OrderLine(this, product, quantity, unitPrice));
    }

    void record(OrderEvent.Type type, Instant at) {
        events.add(new OrderEvent(this, type, at));
    }

    BigDecimal total() {
        return lines.stream().map(OrderLine::amount).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    Long getId() {
        return id;
    }

    String getCustomer() {
        return customer;
    }

    Instant getCreatedAt() {
        return createdAt;
    }

    List<OrderLine> getLines() {
        return lines;
    }

    List<OrderEvent> getEvents() {
        return events;
    }

    Invoice getInvoice() {
        return invoice;
    }
}
