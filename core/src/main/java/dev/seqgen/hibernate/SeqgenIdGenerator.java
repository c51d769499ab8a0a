package dev.seqgen.hibernate;

import jakarta.persistence.GeneratedValue;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate 7 identifier generator behind {@link SeqgenGenerator}, for all four strategies. The id type and
 * settings are checked while Hibernate reads the mappings (no I/O), so mistakes show at start-up; the sequence and
 * its row are created once the session factory is built. SYNC takes the value in the session's transaction (gapless
 * committed ids), the others from the JVM-wide sequence; the value is known before the insert, so JDBC batching
 * keeps working. See docs/design.md#generator-values. Not for direct use: annotate the id.
 */
public class SeqgenIdGenerator extends AbstractSeqgenGenerator<SeqgenGenerator>
        implements AnnotationBasedGenerator<SeqgenGenerator> {

    private static final long serialVersionUID = 1L;

    /** Creates an unconfigured generator (Hibernate, or a bean container, then calls {@link #initialize}). */
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
