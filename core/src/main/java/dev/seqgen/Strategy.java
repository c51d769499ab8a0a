package dev.seqgen;

import java.util.Locale;

/**
 * How a {@link Sequence} takes values from its store: each a different trade between the guarantees a caller gets and
 * the rate one hot counter row can sustain.
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

    /** The row is incremented in the caller's transaction ({@link Sequence#nextInTransaction}); gapless. */
    SYNC,

    /** One store transaction per value, committed before it is returned; a caller's rollback or crash is a gap. */
    ASYNC,

    /** One store transaction per block, reserved by the caller finding it empty; a stopped JVM loses at most one. */
    BATCH,

    /** As {@link #BATCH}, plus a background refill at the refill point ({@link SequenceSettings#adaptive()}). */
    ASYNC_BATCH;

    /** {@return the name as configuration, metrics and the endpoint write it, such as {@code async-batch}} */
    public String externalName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
