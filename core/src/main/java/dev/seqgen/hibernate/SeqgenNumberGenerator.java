package dev.seqgen.hibernate;

import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate 7 value generator behind {@link SeqgenNumber}: a seqgen number on an attribute that is not the
 * id, for all four strategies. Hibernate creates one per annotated attribute while it builds the session
 * factory; the attribute type is checked, the settings are resolved and the sequence (with its row) is created
 * then, so every mistake shows at startup. Not for direct use: annotate the attribute.
 *
 * <pre>
 * Design: why the number is taken at flush, and what that buys SYNC
 *
 * A before-execution generator for INSERT on a non-id attribute is called by Hibernate's insert coordinator
 * (InsertCoordinatorStandard.preInsertInMemoryValueGeneration) when the entity's insert action executes,
 * immediately before the INSERT is bound and added to the JDBC batch (or executed): at flush, not at
 * persist(). The id, by contrast, is generated at persist().
 *
 * SYNC increments the sequence row on the session's own connection, in its transaction
 * (Session.doReturningWork, which does not execute a pending JDBC batch, so batching continues): once per
 * flush and sequence, by the number of the flush's inserts that draw from it (FlushReservations explains
 * where that number is known). From that increment to the end of the transaction the row is locked; taking
 * it at flush shortens that window from "persist() to commit" to "flush to commit". The inserts of one flush
 * get consecutive numbers, in the order Hibernate executes them. A rollback (before or after the flush)
 * undoes the increment with the entities, so committed numbers are gapless.
 *
 * ASYNC, BATCH and ASYNC_BATCH take Sequence.next() from the JVM-wide sequence and never touch the session's
 * connection, exactly as SeqgenIdGenerator does for ids.
 * </pre>
 */
public class SeqgenNumberGenerator extends AbstractSeqgenGenerator<SeqgenNumber>
        implements AnnotationBasedGenerator<SeqgenNumber> {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an unconfigured generator; Hibernate then calls {@link #initialize}. The no-argument constructor
     * lets every way Hibernate instantiates generators work alike, a bean container such as Spring's included.
     */
    public SeqgenNumberGenerator() {
        super("SeqgenNumberGenerator", "property");
    }

    @Override
    boolean reservesAtFlush() {
        return true;
    }

    @Override
    String format(SeqgenNumber annotation) {
        return annotation.format().trim();
    }

    @Override
    @Nullable NumberSeries series(SeqgenNumber annotation, GeneratorCreationContext context, String where) {
        return NumberSeries.of(annotation, context, where, schemaPerTenant(context));
    }

    @Override
    Class<?> generatedType(GeneratorCreationContext context) {
        return context.getProperty().getType().getReturnedClass();
    }

    @Override
    SeqgenMappingException unsupportedType(String where, Class<?> type) {
        return new SeqgenMappingException(where, "@SeqgenNumber generates long/Long and int/Integer attributes,"
                + " and String attributes with a format, not " + (type == String.class ? "a String without one"
                        : type.getName()), "Declare the attribute long, Long, int or Integer, or give a String"
                + " attribute its pattern: @SeqgenNumber(format = \"INV-{number:6}\")", null);
    }

    @Override
    String sequenceName(SeqgenNumber annotation, GeneratorCreationContext context, String property, String where) {
        if (context.getPersistentClass().getIdentifierProperty() != null
                && property.equals(context.getPersistentClass().getIdentifierProperty().getName())) {
            throw new SeqgenMappingException(where, "@SeqgenNumber is for attributes that are not the id",
                    "Annotate the id with @GeneratedValue and @SeqgenGenerator instead", null);
        }
        return annotation.sequence().isBlank()
                ? AnnotatedSettings.snakeCase(context.getRootClass().getJpaEntityName()) + "_"
                        + AnnotatedSettings.snakeCase(property)
                : annotation.sequence().trim();
    }
}
