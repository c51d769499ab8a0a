package dev.seqgen.boot.data.jdbc.invoices;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Embedded;
import org.springframework.data.relational.core.mapping.Table;

/**
 * An aggregate with seqgen numbers inside embedded objects: a gapless number in an immutable embedded record that
 * may be null, a number of the default strategy two embeddings down, and entities with seqgen ids held inside an
 * embedded object.
 */
@Table
public class SeqgenJdbcDelivery {

    @Id
    @SeqgenValue
    private Long id;

    @Embedded.Nullable(prefix = "numbering_")
    private Numbering numbering;

    @Embedded.Empty(prefix = "label_")
    private Label label = new Label();

    public SeqgenJdbcDelivery() {
    }

    public SeqgenJdbcDelivery(Numbering numbering, Tracking tracking) {
        this.numbering = numbering;
        this.label.tracking = tracking;
    }

    public Long getId() {
        return id;
    }

    public Numbering getNumbering() {
        return numbering;
    }

    public void setNumbering(Numbering numbering) {
        this.numbering = numbering;
    }

    public Tracking getTracking() {
        return label.tracking;
    }

    /**
     * The gapless number of a delivery and its series.
     *
     * @param number the number, given by seqgen
     * @param series the series
     */
    public record Numbering(@SeqgenValue(sequence = "seqgen_jdbc_delivery_number", strategy = Strategy.SYNC)
            Long number, String series) {
    }

    public Set<SeqgenJdbcParcel> getParcels() {
        return label.parcels;
    }

    /**
     * The label; Spring Data JDBC creates it on reading even when all its columns are null. It holds the delivery's
     * parcels, entities of the aggregate.
     */
    public static class Label {

        @Embedded.Nullable(prefix = "tracking_")
        private Tracking tracking;

        private Set<SeqgenJdbcParcel> parcels = new LinkedHashSet<>();
    }

    /**
     * A tracking code, its sequence named by the table and the prefixed column ({@code ..._label_tracking_code}).
     *
     * @param code the code, given by seqgen
     */
    public record Tracking(@SeqgenValue Integer code) {
    }
}
