package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import org.hibernate.boot.model.relational.Database;
import org.hibernate.boot.model.relational.ExportableProducer;
import org.hibernate.MappingException;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.jdbc.ReturningWork;

import java.lang.annotation.Annotation;
import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.Locale;
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
 * (Session.doReturningWork, which does not execute a pending JDBC batch, so batching continues). From that
 * increment to the end of the transaction the row is locked; taking it at flush shortens that window from
 * "persist() to commit" to "flush to commit". Several inserts of one flush get consecutive numbers, in the
 * order Hibernate executes them, because the transaction holds the lock from its first increment. A rollback
 * (before or after the flush) undoes the increment with the entity, so committed numbers are gapless.
 *
 * ASYNC, BATCH and ASYNC_BATCH take Sequence.next() from the JVM-wide sequence and never touch the session's
 * connection, exactly as SeqgenIdGenerator does for ids.
 * </pre>
 */
public class SeqgenNumberGenerator implements BeforeExecutionGenerator, AnnotationBasedGenerator<SeqgenNumber>,
        ExportableProducer {

    private static final long serialVersionUID = 1L;

    /** Set when the sequence starts: with the session factory, or at the first number (see SeqgenRegistryService). */
    private transient volatile @Nullable Sequence sequence;
    private transient @Nullable SeqgenRegistryService service;
    /** The sequence this generator registered for; opened at the first value. */
    private String sequenceName;
    private boolean sync;
    /** Takes a SYNC value on the session's connection; null for the other strategies. */
    private transient volatile @Nullable ReturningWork<Long> inSessionTransaction;
    private boolean intNumber;

    /**
     * Creates an unconfigured generator; Hibernate then calls {@link #initialize}. The no-argument constructor
     * lets every way Hibernate instantiates generators work alike, a bean container such as Spring's included.
     */
    public SeqgenNumberGenerator() {
    }

    /**
     * Resolves the sequence of the attribute Hibernate is creating this generator for (Hibernate 7.3 and later).
     *
     * @param annotation the annotation on the attribute
     * @param context the attribute, its entity and the service registry
     * @throws MappingException if the attribute type is not {@code long}/{@code Long}/{@code int}/{@code Integer},
     *     a setting breaks a rule, or the sequence could not be created; the message names the entity and
     *     property
     */
    @Override
    public void initialize(SeqgenNumber annotation, GeneratorCreationContext context) {
        configure(annotation, context);
    }

    /**
     * Resolves the sequence; the form Hibernate 7.1 and 7.2 call.
     *
     * @param annotation the annotation on the attribute
     * @param member the attribute
     * @param context the attribute, its entity and the service registry
     * @throws MappingException as {@link #initialize(SeqgenNumber, GeneratorCreationContext)}
     * @deprecated only for Hibernate before 7.3
     */
    @Override
    @Deprecated
    @SuppressWarnings("removal")
    public void initialize(SeqgenNumber annotation, Member member, GeneratorCreationContext context) {
        configure(annotation, context);
    }

    private void configure(SeqgenNumber annotation, GeneratorCreationContext context) {
        String entity = context.getPersistentClass().getEntityName();
        String property = context.getProperty().getName();
        String where = "entity " + entity + ", property '" + property + "'";

        Class<?> type = context.getProperty().getType().getReturnedClass();
        intNumber = type == Integer.class || type == int.class;
        if (!intNumber && type != Long.class && type != long.class) {
            throw new SeqgenMappingException(where, "@SeqgenNumber generates long/Long and int/Integer attributes,"
                    + " not " + type.getName(), "Declare the attribute long, Long, int or Integer (a formatted number"
                    + " such as INV-000042 is made from it, in a getter or the view), or remove @SeqgenNumber", null);
        }
        if (context.getPersistentClass().getIdentifierProperty() != null
                && property.equals(context.getPersistentClass().getIdentifierProperty().getName())) {
            throw new SeqgenMappingException(where, "@SeqgenNumber is for attributes that are not the id",
                    "Annotate the id with @GeneratedValue and @SeqgenGenerator instead", null);
        }

        String name = annotation.sequence().isBlank()
                ? AnnotatedSettings.snakeCase(context.getRootClass().getJpaEntityName()) + "_"
                        + AnnotatedSettings.snakeCase(property)
                : annotation.sequence().trim();
        where += ", sequence '" + name + "'";
        SeqgenRegistryService service = SeqgenRegistryService.of(context, where);
        this.service = service;
        try {
            // No I/O here: Hibernate may be reading the mappings without a database (see SeqgenRegistryService).
            SequenceSettings settings = service.settingsFor(annotation, name, intNumber, where);
            sync = settings.strategy() == Strategy.SYNC;
            // Numbers already in the column (an invoice table adopting seqgen, a change of store) are adopted as
            // ids are: the sequence starts above the highest, and the column is checked for assigned values.
            sequenceName = name;
            service.register(SeqgenRegistryService.Registration.of(name, settings, context, where, this::started));
        } catch (SequenceException e) {
            throw new SeqgenMappingException(where, e.getMessage(), null, e);
        }
    }

    /**
     * Adds seqgen's table to Hibernate's schema (see {@link SeqgenHibernate#SCHEMA_EXPORT}); Hibernate calls
     * this right after {@code initialize}. No I/O.
     *
     * @param database the relational model Hibernate is building
     */
    @Override
    public void registerExportables(Database database) {
        String table = service == null ? null : service.exportedTable(database.getDialect());
        if (table != null) {
            SeqgenTable.register(database, table);
        }
    }

    private void started(Sequence started) {
        inSessionTransaction = sync ? started::nextInTransaction : null;
        sequence = started;
    }

    /**
     * Returns the next number of the sequence, called by Hibernate immediately before the entity's INSERT:
     * taken in the session's transaction for SYNC, from the shared sequence otherwise.
     *
     * @return a {@code Long}, or an {@code Integer} for {@code int} attributes
     * @throws dev.seqgen.SequenceUnavailableException if no value could be had within the acquire timeout
     * @throws dev.seqgen.SequenceExhaustedException if the maximum value has been handed out
     */
    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, @Nullable Object currentValue,
            EventType eventType) {
        Sequence started = sequence;
        if (started == null) {
            service.open(sequenceName, session);
            started = sequence;
        }
        ReturningWork<Long> sessionWork = inSessionTransaction;
        long value = sessionWork != null ? session.doReturningWork(sessionWork) : started.next();
        return intNumber ? (Object) Math.toIntExact(value) : (Object) value;
    }

    /** @return {@link EventTypeSets#INSERT_ONLY}: the number is generated once, on insert */
    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }

    @Override
    public String toString() {
        return "SeqgenNumberGenerator[" + (sequence == null ? "unconfigured"
                : sequence.name() + ", " + sequence.strategy().name().toLowerCase(Locale.ROOT)) + "]";
    }
}
