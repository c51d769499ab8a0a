package dev.seqgen.boot.data.jdbc.slice;

import dev.seqgen.SeqgenValue;
import dev.seqgen.Strategy;

import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/** The slice's aggregate: a seqgen id and a gapless number. */
@Table
public class SliceInvoice {

    @Id
    @SeqgenValue
    private Long id;

    @SeqgenValue(strategy = Strategy.SYNC)
    private Long number;

    private String customer;

    public SliceInvoice() {
    }

    public SliceInvoice(String customer) {
        this.customer = customer;
    }

    public Long getId() {
        return id;
    }

    public Long getNumber() {
        return number;
    }
}
