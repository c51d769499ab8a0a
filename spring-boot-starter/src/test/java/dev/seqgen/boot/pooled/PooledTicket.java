package dev.seqgen.boot.pooled;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;

/**
 * An id from a database sequence with {@code allocationSize = 50}, served by seqgen's pooled optimizer when the
 * application prefers it; the test's database sequence steps by 10.
 */
@Entity
public class PooledTicket {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "pooled_tickets")
    @SequenceGenerator(name = "pooled_tickets", sequenceName = "pooled_ticket_seq", allocationSize = 50)
    private Long id;

    protected PooledTicket() {
    }
}
