package dev.seqgen;

import org.jspecify.annotations.Nullable;

/**
 * The root of every exception seqgen throws. The message of an exception about one sequence starts with its name,
 * which {@link #sequenceName()} returns.
 */
public class SequenceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String sequenceName;

    /** Creates an exception about a sequence; {@code message} is prefixed by its name, {@code cause} nullable. */
    public SequenceException(String sequenceName, String message, @Nullable Throwable cause) {
        super("sequence '" + sequenceName + "': " + message, cause);
        this.sequenceName = sequenceName;
    }

    /** Creates an exception that is not about one sequence, such as a rejected setting. */
    protected SequenceException(String message) {
        super(message);
        this.sequenceName = null;
    }

    /** Creates an exception that is not about one sequence, such as a store operation that failed. */
    protected SequenceException(String message, @Nullable Throwable cause) {
        super(message, cause);
        this.sequenceName = null;
    }

    /** {@return the name of the sequence at fault, or null when the exception is not about one sequence} */
    public @Nullable String sequenceName() {
        return sequenceName;
    }
}
