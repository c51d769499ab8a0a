package dev.seqgen.jmh.bulk;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Ids from an identity column: known only after the insert, so Hibernate inserts each entity on its own. */
@Entity
@Table(name = "bulk_identity")
public class IdentityOrderLine extends Payload {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Override
    public Object id() {
        return id;
    }
}
