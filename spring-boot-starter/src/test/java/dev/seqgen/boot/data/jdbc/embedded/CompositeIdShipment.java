package dev.seqgen.boot.data.jdbc.embedded;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Embedded;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate with a seqgen number inside its composite id, which seqgen refuses at start-up. */
@Table("seqgen_jdbc_shipment")
public class CompositeIdShipment {

    @Id
    @Embedded.Nullable
    private Key key;

    /**
     * The composite id.
     *
     * @param number a number seqgen could never set
     * @param region the region
     */
    public record Key(@SeqgenValue Long number, String region) {
    }
}
