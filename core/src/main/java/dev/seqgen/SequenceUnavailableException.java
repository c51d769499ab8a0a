package dev.seqgen;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a sequence cannot hand out a value: the store failed, or kept failing or the caller waited past the
 * acquire timeout, or the sequence is closed. Nothing was handed out; the caller may try again.
 */
public class SequenceUnavailableException extends SequenceException {

    private static final long serialVersionUID = 1L;

    /** Creates the exception; {@code cause} is the last store error, or null. */
    public SequenceUnavailableException(String sequenceName, String message, @Nullable Throwable cause) {
        super(sequenceName, message, cause);
    }
}
