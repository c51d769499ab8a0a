package dev.seqgen;

/**
 * Thrown when a sequence has handed out its maximum value. A sequence never wraps around: the row must be
 * given a larger maximum (or the application a new sequence) before values can be taken again.
 */
public class SequenceExhaustedException extends SequenceException {

    private static final long serialVersionUID = 1L;

    private final long maxValue;

    /**
     * Creates the exception.
     *
     * @param sequenceName the exhausted sequence
     * @param maxValue the maximum value it was configured with
     */
    public SequenceExhaustedException(String sequenceName, long maxValue) {
        super(sequenceName, "no value left below the maximum value " + maxValue, null);
        this.maxValue = maxValue;
    }

    /** {@return the maximum value the sequence was configured with} */
    public long maxValue() {
        return maxValue;
    }
}
