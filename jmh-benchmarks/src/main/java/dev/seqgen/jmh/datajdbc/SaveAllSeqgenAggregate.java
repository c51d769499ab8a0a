package dev.seqgen.jmh.datajdbc;

import dev.seqgen.SeqgenValue;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** An aggregate whose id comes from seqgen, with the default strategy. */
@Table
public class SaveAllSeqgenAggregate implements Payload {

    @Id
    @SeqgenValue(sequence = "save_all_seqgen_aggregate")
    private Long id;

    private String payload;

    private long amount;

    SaveAllSeqgenAggregate(String payload, long amount) {
        this.payload = payload;
        this.amount = amount;
    }

    @Override
    public Long getId() {
        return id;
    }
}
