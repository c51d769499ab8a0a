package dev.seqgen.hibernate;

import jakarta.persistence.GeneratedValue;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
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
public class SeqgenIdGenerator extends AbstractSeqgenGenerator<SeqgenGenerator>
        implements AnnotationBasedGenerator<SeqgenGenerator> {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an unconfigured generator; Hibernate then calls {@link #initialize}. The constructor takes no
     * arguments so that every way Hibernate instantiates generators works alike: for an annotated attribute,
     * for a class- or package-level annotation, and through a bean container such as Spring's.
     */
    public SeqgenIdGenerator() {
        super("SeqgenIdGenerator", "id property");
    }

    /** Where each tenant has a schema or database of its own, ids are counted per tenant (see NumberSeries). */
    @Override
    @Nullable NumberSeries series(SeqgenGenerator annotation, GeneratorCreationContext context, String where) {
        return schemaPerTenant(context) ? NumberSeries.perSchemaTenant(where) : null;
    }

    @Override
    Class<?> generatedType(GeneratorCreationContext context) {
        return context.getType().getReturnedClass();
    }

    @Override
    SeqgenMappingException unsupportedType(String where, Class<?> idType) {
        return new SeqgenMappingException(where, "@SeqgenGenerator generates long/Long and int/Integer ids, not "
                + idType.getName(), "Declare the id long, Long, int or Integer, or give it another generator", null);
    }

    @Override
    String sequenceName(SeqgenGenerator annotation, GeneratorCreationContext context, String property, String where) {
        return AnnotatedSettings.sequenceName(annotation,
                generatorName(context.getPersistentClass().getMappedClass(), property),
                context.getRootClass().getJpaEntityName());
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
}
