package dev.seqgen.jmh.bulk;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * Ids from a database sequence stepping by 50, handed out by Hibernate's pooled optimizer (its default for an
 * allocation size above 1): one {@code nextval} per 50 ids, on the session's own connection.
 */
@Entity
@Table(name = "bulk_pooled")
public class PooledSequenceOrderLine extends Payload {

    @Id
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "bulk_pooled_seq")
    @SequenceGenerator(name = "bulk_pooled_seq", sequenceName = "bulk_pooled_seq", allocationSize = 50)
    private Long id;

    @Override
    public Object id() {
        return id;
    }
}
