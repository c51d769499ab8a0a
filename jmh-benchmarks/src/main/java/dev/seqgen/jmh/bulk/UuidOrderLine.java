package dev.seqgen.jmh.bulk;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** Random (version 4) UUID keys, made in the JVM: no database round trip, a 16-byte key in a random place. */
@Entity
@Table(name = "bulk_uuid")
public class UuidOrderLine extends Payload {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    @Override
    public Object id() {
        return id;
    }
}
