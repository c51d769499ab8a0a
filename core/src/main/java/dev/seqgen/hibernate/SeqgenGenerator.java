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
 * Makes seqgen generate the annotated entity id ({@code long}/{@code Long} or {@code int}/{@code Integer}) before
 * the insert, so Hibernate can batch. On an id, or on a package or entity class to serve each
 * {@code @GeneratedValue(AUTO)} id there without a generator of its own; the nearest annotation wins. Each setting is
 * the first of: the value configured for the sequence, the attribute, the configured default, the built-in one;
 * configuration weakening SYNC fails the start-up unless {@code allow-weaker-strategy} is set
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
     * The sequence name: 1 to 64 of {@code A-Z a-z 0-9 _ . -}. Default: the generator name of {@code @GeneratedValue},
     * else the root entity name in snake_case. Entities sharing a sequence must agree on its attributes.
     */
    String sequence() default "";

    /**
     * How counter values become ids, at most one ({@link KeyOrder#BIT_REVERSED} for hotspot-free keys on Spanner).
     * Default: empty, the registry's ({@link KeyOrder#SEQUENTIAL} built in). Not for {@code int} ids.
     */
    KeyOrder[] keyOrder() default {};

    /**
     * The strategy, at most one; SYNC takes the value in the session's transaction (committed ids gapless).
     * Default: empty, the registry's ({@link Strategy#ASYNC_BATCH} built in).
     */
    Strategy[] strategy() default {};

    /** The first value of a sequence whose row does not exist yet, at least 0; default {@link #UNSET}. */
    long initialValue() default UNSET;

    /**
     * The largest value handed out, at least 1; past it inserts fail with
     * {@link dev.seqgen.SequenceExhaustedException}, never wrap. Default {@link #UNSET}; for {@code int} ids at most
     * {@link SequenceSettings#INT_MAX_VALUE}.
     */
    long maxValue() default UNSET;
}
