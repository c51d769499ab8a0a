package dev.seqgen.hibernate;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.hibernate.annotations.IdGeneratorType;
import org.hibernate.annotations.ValueGenerationType;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;
import org.junit.jupiter.api.Test;

import java.lang.annotation.Annotation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generator contract as the strictest Hibernate release reads it. Hibernate 7.4.1 finds the annotation type of
 * an {@link AnnotationBasedGenerator} only among the interfaces the generator's own class declares
 * ({@code Class.getGenericInterfaces()}), and fails every mapping otherwise; later releases search superclasses
 * too, so a test suite run on them alone cannot see the break. This test reads each seqgen generator as 7.4.1 does,
 * on whatever Hibernate runs the tests, and shows the reading would fail on a generator that only inherits the
 * interface.
 */
class GeneratorContractTest {

    @Test
    void everyGeneratorDeclaresItsAnnotationTypeOnItsOwnClass() {
        Map<Class<? extends Annotation>, Class<?>> generators = generatorsByAnnotation();

        assertThat(generators).containsEntry(SeqgenGenerator.class, SeqgenIdGenerator.class)
                .containsEntry(SeqgenNumber.class, SeqgenNumberGenerator.class);
        generators.forEach((annotation, generator) -> assertThat(declaredAnnotationType(generator))
                .as("the annotation type %s declares itself through AnnotationBasedGenerator", generator.getName())
                .isEqualTo(annotation));
    }

    @Test
    void aGeneratorThatOnlyInheritsTheInterfaceIsSeen() {
        assertThat(declaredAnnotationType(InheritsOnly.class)).isNull();
        assertThat(AnnotationBasedGenerator.class.isAssignableFrom(InheritsOnly.class)).isTrue();
    }

    /**
     * seqgen's generator annotations in {@code dev.seqgen.hibernate}, each with the generator Hibernate creates for
     * it.
     */
    @SuppressWarnings("unchecked")
    private static Map<Class<? extends Annotation>, Class<?>> generatorsByAnnotation() {
        Map<Class<? extends Annotation>, Class<?>> generators = new LinkedHashMap<>();
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.seqgen.hibernate")) {
            if (!type.isAnnotation()) {
                continue;
            }
            Class<? extends Annotation> annotation = (Class<? extends Annotation>) type.reflect();
            IdGeneratorType id = annotation.getAnnotation(IdGeneratorType.class);
            if (id != null) {
                generators.put(annotation, id.value());
            }
            ValueGenerationType value = annotation.getAnnotation(ValueGenerationType.class);
            if (value != null) {
                generators.put(annotation, value.generatedBy());
            }
        }
        return generators;
    }

    /**
     * The annotation type as Hibernate 7.4.1 reads it: the type argument of {@code AnnotationBasedGenerator} among
     * the generic interfaces of the generator's own class, or null where that reading fails.
     */
    private static Class<?> declaredAnnotationType(Class<?> generator) {
        for (Type type : generator.getGenericInterfaces()) {
            if (type instanceof ParameterizedType parameterized
                    && parameterized.getRawType() == AnnotationBasedGenerator.class
                    && parameterized.getActualTypeArguments()[0] instanceof Class<?> annotation) {
                return annotation;
            }
        }
        return null;
    }

    /** A generator written as seqgen's were before 7.4.1 was tested: the interface only from the base class. */
    @SuppressWarnings("serial")
    private static final class InheritsOnly extends AbstractSeqgenGenerator<SeqgenNumber> {

        InheritsOnly() {
            super("InheritsOnly", "property");
        }

        @Override
        Class<?> generatedType(GeneratorCreationContext context) {
            return Long.class;
        }

        @Override
        SeqgenMappingException unsupportedType(String where, Class<?> type) {
            return new SeqgenMappingException(where, "unsupported", null, null);
        }

        @Override
        String sequenceName(SeqgenNumber annotation, GeneratorCreationContext context, String property,
                String where) {
            return "inherits_only";
        }
    }
}
