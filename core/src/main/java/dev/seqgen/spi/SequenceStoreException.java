package dev.seqgen.spi;

import dev.seqgen.SequenceException;

import org.jspecify.annotations.Nullable;

/**
 * A store operation failed; its message names the sequence or table. Errors that may succeed when retried
 * (serialization failures, deadlocks, lost connections, aborts) are transient: seqgen retries those with backoff within
 * the acquire timeout and wraps the others at once in a {@link dev.seqgen.SequenceUnavailableException}.
 */
public class SequenceStoreException extends SequenceException {

    private static final long serialVersionUID = 1L;

    private final boolean transientError;

    /** Creates the exception; {@code transientError}: whether retrying the operation may succeed. */
    public SequenceStoreException(String message, @Nullable Throwable cause, boolean transientError) {
        super(message, cause);
        this.transientError = transientError;
    }

    /** {@return whether retrying the operation may succeed} */
    public boolean isTransient() {
        return transientError;
    }
}
