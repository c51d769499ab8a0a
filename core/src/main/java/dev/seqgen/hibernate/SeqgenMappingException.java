package dev.seqgen.hibernate;

import org.hibernate.MappingException;
import org.jspecify.annotations.Nullable;

/** A generated attribute could not be set up: where, problem and fix apart; the store's error, if any, is the cause. */
public class SeqgenMappingException extends MappingException {

    private static final long serialVersionUID = 1L;

    private final String where;
    private final String problem;
    private final @Nullable String action;

    /** Creates the exception, whose message is {@code where: problem. action}; no action when the problem says it. */
    public SeqgenMappingException(String where, String problem, @Nullable String action, @Nullable Throwable cause) {
        super(where + ": " + problem + (action == null ? "" : ". " + action), cause);
        this.where = where;
        this.problem = problem;
        this.action = action;
    }

    /** {@return the entity, property and sequence at fault, or seqgen's table and every attribute using it} */
    public String where() {
        return where;
    }

    /** {@return what is wrong} */
    public String problem() {
        return problem;
    }

    /** {@return the change that fixes the problem, or null when the problem says it} */
    public @Nullable String action() {
        return action;
    }
}
