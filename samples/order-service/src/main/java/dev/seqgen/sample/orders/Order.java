package dev.seqgen.sample.orders;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import dev.seqgen.hibernate.SeqgenNumber;
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
 * ordered per JVM only, and a stopped JVM leaves the unused part of its blocks as gaps. On the spanner profile the
 * id is bit-reversed (hotspot-free, unreadable); the order number beside it is what people read: 1, 2, 3, ...
 * from its own {@code async-batch} sequence, taken at flush, on every profile.
 */
@Entity
@Table(name = "orders")
public class Order {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "orders", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    // Nullable in the schema: a table created before the column existed keeps its rows (ddl-auto=update adds it).
    @SeqgenNumber(sequence = "order_numbers", strategy = Strategy.ASYNC_BATCH)
    @Column(unique = true, updatable = false)
    private Long number;

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

    Long getNumber() {
        return number;
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
