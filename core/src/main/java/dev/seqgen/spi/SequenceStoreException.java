package dev.seqgen.spi;

import dev.seqgen.SequenceException;

import org.jspecify.annotations.Nullable;

/**
 * A store operation failed; its message names the sequence or table. Transient ones (serialization failures, deadlocks,
 * lost connections, aborts) are retried within the acquire timeout, others wrapped in a SequenceUnavailableException.
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
