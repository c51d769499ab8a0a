package dev.seqgen;

import org.jspecify.annotations.Nullable;

/**
 * The root of every exception seqgen throws, so that callers can catch one type: a sequence that cannot hand
 * out a value ({@link SequenceUnavailableException}, {@link SequenceExhaustedException}), a setting that is not
 * allowed ({@link SequenceConfigurationException}) and a store operation that failed
 * ({@link dev.seqgen.spi.SequenceStoreException}). The message of an exception about one sequence starts with
 * the sequence's name, which {@link #sequenceName()} returns.
 */
public class SequenceException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String sequenceName;

    /**
     * Creates an exception for the given sequence.
     *
     * @param sequenceName the sequence at fault
     * @param message what went wrong, without the sequence name (it is prefixed)
     * @param cause the underlying error, or {@code null}
     */
    public SequenceException(String sequenceName, String message, @Nullable Throwable cause) {
        super("sequence '" + sequenceName + "': " + message, cause);
        this.sequenceName = sequenceName;
    }

    /**
     * Creates an exception that is not about one sequence, such as a rejected setting.
     *
     * @param message what went wrong
     */
    protected SequenceException(String message) {
        super(message);
        this.sequenceName = null;
    }

    /**
     * Creates an exception that is not about one sequence, such as a store operation that failed.
     *
     * @param message what went wrong
     * @param cause the underlying error, or {@code null}
     */
    protected SequenceException(String message, @Nullable Throwable cause) {
        super(message, cause);
        this.sequenceName = null;
    }

    /**
     * Returns the name of the sequence at fault.
     *
     * @return the sequence name, or {@code null} when the exception is not about one sequence (a rejected
     *     setting, a store error)
     */
    public @Nullable String sequenceName() {
        return sequenceName;
    }
}
