package dev.seqgen.hibernate;

import org.hibernate.MappingException;
import org.jspecify.annotations.Nullable;

/**
 * A generated attribute ({@link SeqgenGenerator @SeqgenGenerator} id, {@link SeqgenNumber @SeqgenNumber}) could not
 * be set up: its type, its sequence's store or table, or its column. Names the attribute ({@link #where()}), the
 * problem and the fix ({@link #action()}) apart, for start-up reports; the database's or store's error is the cause.
 */
public class SeqgenMappingException extends MappingException {

    private static final long serialVersionUID = 1L;

    private final String where;
    private final String problem;
    private final @Nullable String action;

    /**
     * Creates the exception; its message is {@code where: problem}.
     *
     * @param where the entity, property and sequence, as seqgen names them in errors
     * @param problem what is wrong, with what was observed
     * @param action the change that fixes it, or null when the problem says it
     * @param cause the error that revealed the problem, or null
     */
    public SeqgenMappingException(String where, String problem, @Nullable String action, @Nullable Throwable cause) {
        super(where + ": " + problem + (action == null ? "" : ". " + action), cause);
        this.where = where;
        this.problem = problem;
        this.action = action;
    }

    /**
     * {@return the entity, property and sequence at fault (or seqgen's table and every attribute using it), e.g.
     * {@code entity com.example.Invoice, property 'number', sequence 'invoice_number'}}
     */
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
