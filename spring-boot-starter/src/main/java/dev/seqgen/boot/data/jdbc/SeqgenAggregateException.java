package dev.seqgen.boot.data.jdbc;

import org.jspecify.annotations.Nullable;

/** A {@link dev.seqgen.SeqgenValue} property seqgen cannot serve or value it could not give: where, problem, action. */
final class SeqgenAggregateException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    SeqgenAggregateException(String where, String problem, String action) {
        this(where, problem, action, null);
    }

    SeqgenAggregateException(String where, String problem, String action, @Nullable Throwable cause) {
        super("seqgen: " + where + ": " + problem + ". " + action + ".", cause);
    }
}
