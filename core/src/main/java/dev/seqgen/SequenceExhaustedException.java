package dev.seqgen;

/** Thrown when a sequence has handed out its maximum value; a sequence never wraps around. */
public class SequenceExhaustedException extends SequenceException {

    private static final long serialVersionUID = 1L;

    private final long maxValue;

    /** Creates the exception for a sequence and the maximum value it was configured with. */
    public SequenceExhaustedException(String sequenceName, long maxValue) {
        super(sequenceName, "no value left below the maximum value " + maxValue, null);
        this.maxValue = maxValue;
    }

    /** {@return the maximum value the sequence was configured with} */
    public long maxValue() {
        return maxValue;
    }
}
