package dev.seqgen.hibernate;

import dev.seqgen.Strategy;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Non-id numbers of the three non-gapless strategies, on each attribute type the annotation supports. */
@Entity
@Table(name = "multi_numbered")
public class MultiNumbered {

    @Id
    @GeneratedValue
    @SeqgenGenerator(sequence = "multi_numbered_ids", strategy = Strategy.ASYNC_BATCH)
    private Long id;

    @SeqgenNumber(strategy = Strategy.ASYNC)
    private Long asyncNumber;

    @SeqgenNumber(sequence = "multi_batch", strategy = Strategy.BATCH)
    private long batchNumber;

    @SeqgenNumber(sequence = "multi_async_batch", strategy = Strategy.ASYNC_BATCH)
    private Integer asyncBatchNumber;

    @SeqgenNumber(sequence = "multi_sync", strategy = Strategy.SYNC)
    private int syncNumber;

    Long asyncNumber() {
        return asyncNumber;
    }

    long batchNumber() {
        return batchNumber;
    }

    Integer asyncBatchNumber() {
        return asyncBatchNumber;
    }

    int syncNumber() {
        return syncNumber;
    }
}
