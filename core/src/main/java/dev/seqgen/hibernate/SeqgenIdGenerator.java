package dev.seqgen.hibernate;

import jakarta.persistence.GeneratedValue;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate 7 identifier generator behind {@link SeqgenGenerator}; mistakes show at start-up. See
 * docs/design.md#generator-values. Not for direct use: annotate the id.
 */
public class SeqgenIdGenerator extends AbstractSeqgenGenerator<SeqgenGenerator>
        implements AnnotationBasedGenerator<SeqgenGenerator> {

    private static final long serialVersionUID = 1L;

    /** Creates an unconfigured generator (Hibernate, or a bean container, then calls {@link #initialize}). */
    public SeqgenIdGenerator() {
        super("SeqgenIdGenerator", "id property");
    }

    /** Ids count per tenant where each tenant has a schema or database of its own. */
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

    /** {@code @GeneratedValue}'s generator name on the id field or getter, or null (Hibernate 7.1 to 7.4 alike). */
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
