package dev.seqgen.boot.autoconfigure;

import org.jspecify.annotations.Nullable;

/** A start-up that cannot work as set up (a missing table, a pool too small), with what to change. */
final class SeqgenSetupException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String action;

    SeqgenSetupException(String description, String action, @Nullable Throwable cause) {
        super(description, cause);
        this.action = action;
    }

    String action() {
        return this.action;
    }
}
