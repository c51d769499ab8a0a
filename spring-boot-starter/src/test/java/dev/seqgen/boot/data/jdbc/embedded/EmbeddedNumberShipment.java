package dev.seqgen.boot.data.jdbc.embedded;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Embedded;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate with a seqgen number inside an embedded object, which seqgen refuses at start-up. */
@Table("seqgen_jdbc_shipment")
public class EmbeddedNumberShipment {

    @Id
    @SeqgenValue
    private Long id;

    @Embedded.Nullable(prefix = "tracking_")
    private Tracking tracking;

    /**
     * The embedded object.
     *
     * @param number a number seqgen would not fill
     * @param carrier the carrier
     */
    public record Tracking(@SeqgenValue Long number, String carrier) {
    }
}
