package dev.seqgen.jmh.datajdbc;

/** What the benchmark reads back of a saved aggregate. */
public interface Payload {

    /**
     * Returns the id the save gave the aggregate.
     *
     * @return the id
     */
    Long getId();
}
