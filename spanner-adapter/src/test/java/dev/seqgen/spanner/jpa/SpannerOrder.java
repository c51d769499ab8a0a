package dev.seqgen.spanner.jpa;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** An order stored in Spanner whose id comes from an async-batch sequence: unique, no caller waits. */
@Entity
public class SpannerOrder {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "orders", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    private String customer;

    protected SpannerOrder() {
    }

    public SpannerOrder(String customer) {
        this.customer = customer;
    }

    public Long getId() {
        return id;
    }
}
