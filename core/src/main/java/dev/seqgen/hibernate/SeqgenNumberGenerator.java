package dev.seqgen.hibernate;

import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;
import org.jspecify.annotations.Nullable;

/** The Hibernate 7 generator behind {@link SeqgenNumber}; not for direct use. See docs/design.md#generator-values. */
public class SeqgenNumberGenerator extends AbstractSeqgenGenerator<SeqgenNumber>
        implements AnnotationBasedGenerator<SeqgenNumber> {

    private static final long serialVersionUID = 1L;

    /** Creates an unconfigured generator (Hibernate, or a bean container, then calls {@link #initialize}). */
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
