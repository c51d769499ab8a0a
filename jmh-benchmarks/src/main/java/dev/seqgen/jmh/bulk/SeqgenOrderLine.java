package dev.seqgen.jmh.bulk;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Ids from seqgen ASYNC_BATCH, blocks of 1000 ({@link IdKind}): known before the insert, so inserts batch. */
@Entity
@Table(name = "bulk_seqgen")
public class SeqgenOrderLine extends Payload {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "bulk_seqgen", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @Override
    public Object id() {
        return id;
    }
}
