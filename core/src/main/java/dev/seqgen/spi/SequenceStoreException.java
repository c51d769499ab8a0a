package dev.seqgen.spi;

import dev.seqgen.SequenceException;

import org.jspecify.annotations.Nullable;

/**
 * A store operation failed. Stores mark errors that may succeed when retried (serialization failures,
 * deadlocks, lost connections, aborted transactions) as transient; seqgen retries those with backoff
 * within the acquire timeout and surfaces the others at once, wrapped in a
 * {@link dev.seqgen.SequenceUnavailableException} naming the sequence. It is a {@link SequenceException} without
 * a sequence name: the message names the sequence or table.
 */
public class SequenceStoreException extends SequenceException {

    private static final long serialVersionUID = 1L;

    private final boolean transientError;

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the sequence or table
     * @param cause the driver's error
     * @param transientError whether retrying the operation may succeed
     */
    public SequenceStoreException(String message, @Nullable Throwable cause, boolean transientError) {
        super(message, cause);
        this.transientError = transientError;
    }

    /** {@return whether retrying the operation may succeed} */
    public boolean isTransient() {
        return transientError;
    }
}
