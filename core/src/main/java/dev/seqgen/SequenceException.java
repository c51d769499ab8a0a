package dev.seqgen;

/**
 * Base of the exceptions seqgen throws while handing out values. The message always names the sequence.
 */
public class SequenceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sequenceName;

    /**
     * Creates an exception for the given sequence.
     *
     * @param sequenceName the sequence at fault
     * @param message what went wrong, without the sequence name (it is prefixed)
     * @param cause the underlying error, or {@code null}
     */
    public SequenceException(String sequenceName, String message, Throwable cause) {
        super("sequence '" + sequenceName + "': " + message, cause);
        this.sequenceName = sequenceName;
    }

    /**
     * Returns the name of the sequence at fault.
     *
     * @return the sequence name
     */
    public String sequenceName() {
        return sequenceName;
    }
}
