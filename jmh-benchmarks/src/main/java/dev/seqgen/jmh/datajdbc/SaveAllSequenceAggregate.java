package dev.seqgen.jmh.datajdbc;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Sequence;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate whose id comes from Spring Data's {@code @Sequence}: one database sequence call per aggregate. */
@Table
public class SaveAllSequenceAggregate implements Payload {

    @Id
    @Sequence("save_all_sequence_aggregate_seq")
    private Long id;

    private String payload;

    private long amount;

    SaveAllSequenceAggregate(String payload, long amount) {
        this.payload = payload;
        this.amount = amount;
    }

    @Override
    public Long getId() {
        return id;
    }
}
