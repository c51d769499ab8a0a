package dev.seqgen;

import java.util.Locale;

/**
 * How a {@link Sequence} takes values from its store. The four strategies of "Sequence generation in
 * Spanner", each a different trade between the guarantees a caller gets and the rate one hot counter
 * row can sustain.
 *
 * <table>
 *   <caption>Guarantees per strategy</caption>
 *   <tr><th>strategy</th><th>unique</th><th>ordered</th><th>gapless</th><th>throughput bound</th></tr>
 *   <tr><td>{@link #SYNC}</td><td>yes</td><td>yes, among commits</td><td>yes</td>
 *       <td>1 / caller's transaction time</td></tr>
 *   <tr><td>{@link #ASYNC}</td><td>yes</td><td>in issue order</td><td>no</td><td>1 / store round trip</td></tr>
 *   <tr><td>{@link #BATCH}</td><td>yes</td><td>per JVM only</td><td>no</td><td>block size / store round trip</td></tr>
 *   <tr><td>{@link #ASYNC_BATCH}</td><td>yes</td><td>per JVM only</td><td>no</td>
 *       <td>block size / store round trip, callers normally never wait</td></tr>
 * </table>
 */
public enum Strategy {

    /**
     * The counter row is incremented inside the caller's own transaction: a rollback undoes the
     * increment, so committed values are gapless and ordered by commit. Other transactions that want a
     * value wait for the row lock until the holder commits. Values are taken with
     * {@link Sequence#nextInTransaction(Object)}.
     */
    SYNC,

    /**
     * One store transaction per value, committed before the value is returned. Values are ordered in
     * issue order; a value whose caller rolls back or crashes is a gap.
     */
    ASYNC,

    /**
     * One store transaction per block of values. The caller that finds the block empty reserves the next
     * one while the other callers wait for it. A stopped JVM loses at most one block.
     */
    BATCH,

    /**
     * As {@link #BATCH}, plus a background refill once the values left in the block fall to the refill point,
     * so callers wait only when the refill is late; by default the refill point and the block size follow the
     * store's latency and the rate values are taken (see {@link SequenceSettings#adaptive()}).
     */
    ASYNC_BATCH;

    /**
     * Returns the strategy's name as configuration, metrics and the actuator endpoint write it: lowercase with
     * hyphens.
     *
     * @return for example {@code async-batch}
     */
    public String externalName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
