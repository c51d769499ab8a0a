package dev.seqgen.boot.data.jdbc.embeddedlines;

import dev.seqgen.SeqgenValue;

import java.util.List;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Embedded;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate holding entities with seqgen ids inside an embedded object, which seqgen refuses at start-up. */
@Table("seqgen_jdbc_parcel")
public class EmbeddedLinesParcel {

    @Id
    @SeqgenValue
    private Long id;

    @Embedded.Empty
    private Contents contents;

    /**
     * The embedded object.
     *
     * @param items entities seqgen would not reach
     */
    public record Contents(List<Item> items) {
    }

    /**
     * An entity of the aggregate.
     *
     * @param id its seqgen id
     * @param name its name
     */
    public record Item(@Id @SeqgenValue Long id, String name) {
    }
}
