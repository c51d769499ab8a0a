package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import jakarta.persistence.GeneratedValue;
import org.hibernate.MappingException;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.jdbc.ReturningWork;
import org.hibernate.mapping.Column;
import org.hibernate.mapping.Selectable;
import org.hibernate.mapping.Table;
import dev.seqgen.spi.SequenceStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;
import java.util.Locale;

/**
 * The Hibernate 7 identifier generator behind {@link SeqgenGenerator}: one class for all four strategies,
 * chosen per sequence. Hibernate creates one per entity hierarchy while it builds the session factory; this is
 * when the id type is checked, the settings are resolved and the sequence (with its row) is created, so every
 * mistake shows at startup. Not for direct use: annotate the id.
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
public class SeqgenIdGenerator implements BeforeExecutionGenerator, AnnotationBasedGenerator<SeqgenGenerator> {

    private static final long serialVersionUID = 1L;
    private static final System.Logger LOG = System.getLogger(SeqgenIdGenerator.class.getName());

    private transient Sequence sequence;
    /** Takes a SYNC value on the session's connection; null for the other strategies. */
    private transient ReturningWork<Long> inSessionTransaction;
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
            throw new MappingException(where + ": @SeqgenGenerator generates long/Long and int/Integer ids, not "
                    + idType.getName());
        }

        String name = AnnotatedSettings.sequenceName(annotation,
                generatorName(context.getPersistentClass().getMappedClass(), property),
                context.getRootClass().getJpaEntityName());
        where += ", sequence '" + name + "'";
        SeqgenRegistryService service = context.getServiceRegistry().getService(SeqgenRegistryService.class);
        if (service == null) {
            throw new MappingException(where + ": seqgen's Hibernate service is not registered; seqgen-core"
                    + " registers it through META-INF/services/org.hibernate.service.spi.ServiceContributor, or call"
                    + " new SeqgenServiceContributor().contribute(standardServiceRegistryBuilder)");
        }
        try {
            SequenceRegistry registry = service.registry();
            SequenceSettings settings = AnnotatedSettings.resolve(annotation, registry.settingsFor(name),
                    registry.defaults(), intId ? SequenceSettings.INT_MAX_VALUE : SequenceSettings.LARGEST_MAX_VALUE);
            if (settings.strategy() == Strategy.SYNC && !(registry.store() instanceof JdbcSequenceStore)) {
                throw new MappingException(where + ": the SYNC strategy increments the row on the session's JDBC"
                        + " connection, so it needs the JDBC store in the entities' database; the registry uses the "
                        + registry.store().name() + " store. Give the sequence another strategy (with Spring Boot:"
                        + " seqgen.sequences." + name + ".strategy=async, unique and ordered but not gapless), or keep"
                        + " its row in the entities' database with the JDBC store");
            }
            startAboveExistingRows(name, settings, registry.store(), context);
            sequence = registry.sequence(name, settings);
        } catch (SequenceConfigurationException | SequenceException e) {
            throw new MappingException(where + ": " + e.getMessage(), e);
        }
        inSessionTransaction = sequence.strategy() == Strategy.SYNC ? sequence::nextInTransaction : null;
    }

    /**
     * Makes the row of the sequence lie above the highest id already in the entity's table, before the
     * sequence hands out anything: a new row starts at max(initial value, highest id + 1); an existing row
     * below it is moved forward with the store's guarded update (never backwards), so JVMs starting at once
     * agree. A table that cannot be read (not created yet, e.g. ddl-auto=create) counts as empty.
     */
    private static void startAboveExistingRows(String name, SequenceSettings settings, SequenceStore store,
            GeneratorCreationContext context) {
        Table table = context.getRootClass().getTable();
        if (table == null || context.getProperty().getValue().getColumnSpan() != 1) {
            return;
        }
        Selectable selectable = context.getProperty().getValue().getSelectables().get(0);
        if (!(selectable instanceof Column column)) {
            return;
        }
        ConnectionProvider provider = context.getServiceRegistry().getService(ConnectionProvider.class);
        if (provider == null) {
            return;
        }
        String qualified = (table.getCatalog() == null ? "" : table.getQuotedCatalog() + ".")
                + (table.getSchema() == null ? "" : table.getQuotedSchema() + ".") + table.getQuotedName();
        long highest;
        try {
            Connection connection = provider.getConnection();
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("select max(" + column.getQuotedName() + ") from "
                            + qualified)) {
                highest = rs.next() ? rs.getLong(1) : 0;
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            } finally {
                provider.closeConnection(connection);
            }
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.DEBUG, "seqgen: could not read the highest id of table " + qualified
                    + " for sequence '" + name + "' (counted as empty): " + e.getMessage());
            return;
        }
        if (highest <= 0 || highest == Long.MAX_VALUE) {
            return;
        }
        long start = Math.max(settings.initialValue(), highest + 1);
        store.createSequence(name, start);
        boolean moved;
        try {
            moved = store.advance(name, highest + 1);
        } catch (UnsupportedOperationException e) {
            return;
        }
        if (moved) {
            LOG.log(System.Logger.Level.INFO, "seqgen: moved sequence '" + name + "' forward to " + (highest + 1)
                    + ", above the highest id already in table " + qualified + " (" + highest + ")");
        }
    }

    /**
     * The generator name of {@code @GeneratedValue} on the id field or getter, or null. Found by reflection
     * because Hibernate's view of the member differs between 7.1 and 7.4, and the entity's own class (or a
     * mapped superclass) declares it.
     */
    private static String generatorName(Class<?> entityClass, String property) {
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
    public Object generate(SharedSessionContractImplementor session, Object owner, Object currentValue,
            EventType eventType) {
        long value = inSessionTransaction != null ? session.doReturningWork(inSessionTransaction) : sequence.next();
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
