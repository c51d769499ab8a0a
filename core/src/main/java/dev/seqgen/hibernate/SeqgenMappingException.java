package dev.seqgen.hibernate;

import org.hibernate.MappingException;
import org.jspecify.annotations.Nullable;

/**
 * seqgen's Hibernate generators could not be set up for a generated attribute (an id of
 * {@link SeqgenGenerator @SeqgenGenerator}, a number of {@link SeqgenNumber @SeqgenNumber}): its type, its sequence's
 * store or table, or its column. A {@link MappingException}, as Hibernate expects from a generator, that names the
 * attribute ({@link #where()}), the problem and, where one change fixes it, that change ({@link #action()}), so
 * that a start-up report (Spring Boot's failure analysis) can show them apart, however deep Hibernate has wrapped
 * the exception. The database's or the store's error, if any, is the cause.
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
     * Returns the entity, property and sequence at fault, or, when seqgen's sequence table is, the table and every
     * entity, property and sequence that uses it.
     *
     * @return for example {@code entity com.example.Invoice, property 'number', sequence 'invoice_number'}
     */
    public String where() {
        return where;
    }

    /**
     * Returns what is wrong.
     *
     * @return the problem
     */
    public String problem() {
        return problem;
    }

    /**
     * Returns the change that fixes the problem, or null when the problem itself says what to do.
     *
     * @return the action, or null
     */
    public @Nullable String action() {
        return action;
    }
}
