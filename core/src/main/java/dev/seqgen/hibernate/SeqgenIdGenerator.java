package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import jakarta.persistence.GeneratedValue;
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

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate 7 identifier generator behind {@link SeqgenGenerator}: one class for all four strategies,
 * chosen per sequence. Hibernate creates one per entity hierarchy while it reads the mappings; this is when
 * the id type is checked and the settings are resolved, without database I/O, so every configuration mistake
 * shows at startup. The sequence (with its row, placed above the ids already in the entity's table) is
 * created when the session factory has been built, see SeqgenRegistryService. Not for direct use: annotate
 * the id.
 *
 * <pre>
 * Design: where a value comes from
 *
 * SYNC takes the value on the session's own JDBC connection, inside the session's transaction
 * (Session.doReturningWork): the row's increment commits or rolls back with the entity, so committed ids are
 * gapless, and several entities persisted in one transaction get consecutive values, because the
 * transaction holds the row lock from its first increment until it ends. It never needs a second
 * connection.
 *
 * ASYNC, BATCH and ASYNC_BATCH call Sequence.next(), the JVM-wide sequence of the registry, and never touch
 * the session's connection: their reservations commit in transactions of their own, so a rollback of the
 * entity leaves a gap but never undoes a value someone else may already hold. ASYNC_BATCH refills in the
 * background, so inserting threads normally take a value from the block in hand without any I/O; BATCH and
 * ASYNC wait for a reservation, at most for the acquire timeout. Those reservations need a connection
 * while the inserting thread holds its session's: when seqgen builds the registry, it gives the store a
 * connection of its own, borrowed at startup (see JdbcSequenceStore.Builder#dedicatedConnection), so no reservation ever
 * waits for the application's pool and a small pool cannot deadlock. A registry given through
 * SeqgenHibernate.REGISTRY must avoid that wait likewise (a separate pool or a dedicated connection).
 *
 * The value is known before the insert (a before-execution generator), so Hibernate's JDBC batching
 * (hibernate.jdbc.batch_size) keeps working.
 * </pre>
 */
public class SeqgenIdGenerator implements BeforeExecutionGenerator, AnnotationBasedGenerator<SeqgenGenerator>,
        ExportableProducer {

    private static final long serialVersionUID = 1L;

    /** Set by the registry service when it starts (session-factory start-up or first value); then final. */
    private transient volatile @Nullable Sequence sequence;
    /** Takes a SYNC value on the session's connection; null for the other strategies; set before sequence. */
    private transient @Nullable ReturningWork<Long> inSessionTransaction;
    private transient @Nullable SeqgenRegistryService service;
    /** The sequence this generator registered for; opened at the first value. */
    private String sequenceName;
    private boolean sync;
    private boolean intId;

    /**
     * Creates an unconfigured generator; Hibernate then calls {@link #initialize}. The constructor takes no
     * arguments so that every way Hibernate instantiates generators works alike: for an annotated attribute,
     * for a class- or package-level annotation, and through a bean container such as Spring's.
     */
    public SeqgenIdGenerator() {
    }

    /**
     * Resolves the sequence of the id Hibernate is creating this generator for (Hibernate 7.3 and later).
     *
     * @param annotation the annotation on the id, its class or its package
     * @param context the id, its entity and the service registry
     * @throws MappingException if the id type is not {@code long}/{@code Long}/{@code int}/{@code Integer}, a
     *     setting breaks a rule, or the sequence could not be created; the message names the entity and
     *     property
     */
    @Override
    public void initialize(SeqgenGenerator annotation, GeneratorCreationContext context) {
        configure(annotation, context);
    }

    /**
     * Resolves the sequence; the form Hibernate 7.1 and 7.2 call.
     *
     * @param annotation the annotation on the id, its class or its package
     * @param member the id attribute
     * @param context the id, its entity and the service registry
     * @throws MappingException as {@link #initialize(SeqgenGenerator, GeneratorCreationContext)}
     * @deprecated only for Hibernate before 7.3
     */
    @Override
    @Deprecated
    @SuppressWarnings("removal")
    public void initialize(SeqgenGenerator annotation, Member member, GeneratorCreationContext context) {
        configure(annotation, context);
    }

    private void configure(SeqgenGenerator annotation, GeneratorCreationContext context) {
        String entity = context.getPersistentClass().getEntityName();
        String property = context.getProperty().getName();
        String where = "entity " + entity + ", id property '" + property + "'";

        Class<?> idType = context.getType().getReturnedClass();
        intId = idType == Integer.class || idType == int.class;
        if (!intId && idType != Long.class && idType != long.class) {
            throw new SeqgenMappingException(where, "@SeqgenGenerator generates long/Long and int/Integer ids, not "
                    + idType.getName(), "Declare the id long, Long, int or Integer, or give it another generator",
                    null);
        }

        String name = AnnotatedSettings.sequenceName(annotation,
                generatorName(context.getPersistentClass().getMappedClass(), property),
                context.getRootClass().getJpaEntityName());
        where += ", sequence '" + name + "'";
        SeqgenRegistryService service = SeqgenRegistryService.of(context, where);
        this.service = service;
        try {
            // No I/O here: Hibernate may be reading the mappings without a database (see SeqgenRegistryService).
            SequenceSettings settings = service.settingsFor(annotation, name, intId, where);
            sync = settings.strategy() == Strategy.SYNC;
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
     * The generator name of {@code @GeneratedValue} on the id field or getter, or null. Found by reflection
     * because Hibernate's view of the member differs between 7.1 and 7.4, and the entity's own class (or a
     * mapped superclass) declares it.
     */
    private static @Nullable String generatorName(Class<?> entityClass, String property) {
        String getterSuffix = Character.toUpperCase(property.charAt(0)) + property.substring(1);
        for (Class<?> type = entityClass; type != null && type != Object.class; type = type.getSuperclass()) {
            for (Field field : type.getDeclaredFields()) {
                if (field.getName().equals(property) && field.isAnnotationPresent(GeneratedValue.class)) {
                    return field.getAnnotation(GeneratedValue.class).generator();
                }
            }
            for (Method method : type.getDeclaredMethods()) {
                boolean getter = method.getName().equals("get" + getterSuffix)
                        || method.getName().equals("is" + getterSuffix);
                if (getter && method.getParameterCount() == 0 && method.isAnnotationPresent(GeneratedValue.class)) {
                    return method.getAnnotation(GeneratedValue.class).generator();
                }
            }
        }
        return null;
    }

    /**
     * Returns the next id of the sequence: taken in the session's transaction for SYNC, from the shared
     * sequence otherwise.
     *
     * @return a {@code Long}, or an {@code Integer} for {@code int} ids
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
        return intId ? (Object) Math.toIntExact(value) : (Object) value;
    }

    /** @return {@link EventTypeSets#INSERT_ONLY}: ids are generated once, on insert */
    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }

    @Override
    public String toString() {
        return "SeqgenIdGenerator[" + (sequence == null ? "unconfigured"
                : sequence.name() + ", " + sequence.strategy().name().toLowerCase(Locale.ROOT)) + "]";
    }
}
