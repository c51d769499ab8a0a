package dev.seqgen.jmh.spanner;

import dev.seqgen.KeyOrder;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** Keys from seqgen: ASYNC_BATCH counters, bit-reversed. */
@Entity
public class SeqgenKeyed implements Keyed {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "seqgen_keyed_ids", strategy = Strategy.ASYNC_BATCH, keyOrder = KeyOrder.BIT_REVERSED)
    private Long id;

    private String payload;

    protected SeqgenKeyed() {
    }

    SeqgenKeyed(String payload) {
        this.payload = payload;
    }

    @Override
    public Long id() {
        return id;
    }
}
