package dev.seqgen;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a sequence cannot hand out a value: the store failed with a non-transient error, transient
 * errors went on for longer than the acquire timeout, the caller waited longer than the acquire timeout
 * for another caller's or the background refill, or the sequence is closed. Nothing was handed out; the
 * caller may try again.
 */
public class SequenceUnavailableException extends SequenceException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param sequenceName the sequence that could not hand out a value
     * @param message what went wrong
     * @param cause the last store error, or {@code null}
     */
    public SequenceUnavailableException(String sequenceName, String message, @Nullable Throwable cause) {
        super(sequenceName, message, cause);
    }
}
