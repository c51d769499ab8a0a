package dev.seqgen.sample.orders;

import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * Something that happened to an order. The id's generator names nothing: the sequence is {@code order_event}
 * (the entity name in snake_case) and its strategy is whatever {@code seqgen.sequences.order_event.*} says;
 * {@code application.properties} makes it {@code async} (one reservation per event, ids in the order they
 * were issued, a gap per rolled-back event). Change the property, restart, and the same code uses another
 * strategy.
 */
@Entity
@Table(name = "order_events")
public class OrderEvent {

    /** What happened. */
    public enum Type {
        CREATED, INVOICED
    }

    @Id
    @GeneratedValue
    @SeqgenGenerator
    private Long id;

    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "order_id", nullable = false)
    private Order order;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false, length = 20)
    private Type type;

    @Column(nullable = false)
    private Instant at;

    protected OrderEvent() {
    }

    OrderEvent(Order order, Type type, Instant at) {
        this.order = order;
        this.type = type;
        this.at = at;
    }

    Long getId() {
        return id;
    }

    Type getType() {
        return type;
    }

    Instant getAt() {
        return at;
    }
}
