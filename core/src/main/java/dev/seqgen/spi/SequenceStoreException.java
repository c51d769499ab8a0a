package dev.seqgen.spi;

/**
 * A store operation failed. Stores mark errors that may succeed when retried (serialization failures,
 * deadlocks, lost connections, aborted transactions) as transient; seqgen retries those with backoff
 * within the acquire timeout and surfaces the others at once.
 */
public class SequenceStoreException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean transientError;

    /**
     * Creates the exception.
     *
     * @param message what failed, naming the sequence or table
     * @param cause the driver's error
     * @param transientError whether retrying the operation may succeed
     */
    public SequenceStoreException(String message, Throwable cause, boolean transientError) {
        super(message, cause);
        this.transientError = transientError;
    }

    /**
     * Returns whether retrying the operation may succeed.
     *
     * @return whether the error is transient
     */
    public boolean isTransient() {
        return transientError;
    }
}
