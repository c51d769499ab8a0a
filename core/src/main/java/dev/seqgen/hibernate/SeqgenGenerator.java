package dev.seqgen.hibernate;

import dev.seqgen.SequenceSettings;
import dev.seqgen.KeyOrder;
import dev.seqgen.Strategy;
import org.hibernate.annotations.IdGeneratorType;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes seqgen generate the annotated {@code long}/{@code Long} or {@code int}/{@code Integer} id before the insert,
 * so Hibernate can batch. On an id, or on a package or entity class for its {@code @GeneratedValue(AUTO)} ids without
 * a generator (the nearest annotation wins). Configuration for the sequence overrides the attributes
 * (docs/hibernate-generator.md, docs/settings.md).
 */
@IdGeneratorType(SeqgenIdGenerator.class)
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE, ElementType.PACKAGE})
public @interface SeqgenGenerator {

    /** The value of an unset numeric attribute. */
    long UNSET = -1;

    /**
     * The sequence name, 1 to 64 of {@code A-Z a-z 0-9 _ . -}; default {@code @GeneratedValue}'s generator name, else
     * the root entity name in snake_case. Entities sharing a sequence must agree on its attributes.
     */
    String sequence() default "";

    /** How counters become ids, at most one, not for {@code int} ids; default the registry's ({@link KeyOrder}). */
    KeyOrder[] keyOrder() default {};

    /** The strategy, at most one; default the registry's ({@link Strategy#ASYNC_BATCH} built in). */
    Strategy[] strategy() default {};

    /** The first value of a sequence whose row does not exist yet, at least 0; default {@link #UNSET}. */
    long initialValue() default UNSET;

    /**
     * The largest value handed out, at least 1 ({@link SequenceSettings#INT_MAX_VALUE} at most for {@code int} ids);
     * past it inserts fail with {@link dev.seqgen.SequenceExhaustedException}. Default {@link #UNSET}.
     */
    long maxValue() default UNSET;
}
