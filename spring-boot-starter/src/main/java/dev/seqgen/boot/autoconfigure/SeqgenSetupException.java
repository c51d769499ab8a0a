package dev.seqgen.boot.autoconfigure;

import org.jspecify.annotations.Nullable;

/**
 * A start-up that cannot work as set up (a missing sequence table, a pool too small for the dedicated
 * connection), with the failure analysis that says what to change.
 */
final class SeqgenSetupException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;

    private final String action;

    SeqgenSetupException(String description, String action) {
        this(description, action, null);
    }

    /** With the error observed (a database's), kept as the cause so that nothing of it is lost. */
    SeqgenSetupException(String description, String action, @Nullable Throwable cause) {
        super(description, cause);
        this.description = description;
        this.action = action;
    }

    String description() {
        return this.description;
    }

    String action() {
        return this.action;
    }
}
