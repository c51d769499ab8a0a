package dev.seqgen.jmh.bulk;

import jakarta.persistence.Column;
import jakarta.persistence.MappedSuperclass;
import java.time.Instant;

/** The columns every bulk-insert entity carries, whatever its id: an order line of a typical size. */
@MappedSuperclass
public abstract class Payload {

    @Column(name = "customer", length = 40, nullable = false)
    private String customer;

    @Column(name = "amount_cents", nullable = false)
    private long amountCents;

    @Column(name = "status", length = 16, nullable = false)
    private String status;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    protected Payload() {
    }

    /** Fills the columns from a running number, so that rows differ without costing a random number. */
    void fill(long n, Instant now) {
        customer = "customer-" + (n % 10_000);
        amountCents = n * 7 % 1_000_000;
        status = (n & 1) == 0 ? "NEW" : "PAID";
        createdAt = now;
    }

    /**
     * Returns the id, for the benchmark to return.
     *
     * @return the id Hibernate gave the entity
     */
    public abstract Object id();
}
