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
 * Makes seqgen generate the annotated entity id: a {@code long}/{@code Long} or {@code int}/{@code Integer}
 * taken from a seqgen {@link dev.seqgen.Sequence} before the insert, so Hibernate can batch the inserts.
 *
 * <p>On an id attribute, alone or together with {@code @GeneratedValue}:
 * <pre>{@code
 * @Id @GeneratedValue @SeqgenGenerator(sequence = "invoices", strategy = Strategy.SYNC)
 * private Long number;
 * }</pre>
 *
 * <p>On a package ({@code package-info.java}) or an entity class, it serves every {@code @GeneratedValue} id
 * with the default strategy ({@code AUTO}) declared in that package or class that has no generator
 * annotation of its own:
 * <pre>{@code
 * @SeqgenGenerator(strategy = Strategy.ASYNC_BATCH)
 * package com.example.orders;
 *
 * // in that package:
 * @Id @GeneratedValue(generator = "orders") private Long id;   // sequence "orders"
 * @Id @GeneratedValue private Long id;                          // sequence derived from the entity
 * }</pre>
 * An annotation on the attribute wins over one on the class, which wins over the package's (that of the class
 * declaring the id). Ids with {@code @GeneratedValue(strategy = SEQUENCE, TABLE, IDENTITY or UUID)}, or a generator
 * name of Hibernate's own ({@code "sequence"}, {@code "uuid"}, ...), keep Hibernate's generators.
 *
 * <p><b>Sequence name</b>: {@link #sequence()}, else {@code @GeneratedValue(generator = ...)}, else the root
 * entity's name in snake_case ({@code PurchaseOrder} becomes {@code purchase_order}). Entities sharing a name share
 * the sequence and must agree on its attributes.
 *
 * <p><b>Settings</b>: the attributes declare what the code depends on (strategy, key order, initial and maximum
 * value); tuning is configuration only ({@code seqgen.sequences.<name>.*}, {@code seqgen.defaults.*}). Each setting
 * is the first of: the value set for this sequence name, the attribute, the configured default, the built-in
 * default; a configuration weakening the attribute's SYNC fails the start-up unless {@code allow-weaker-strategy}
 * is set (docs/settings.md). For {@code int} ids the maximum value is at most {@link SequenceSettings#INT_MAX_VALUE}.
 */
@IdGeneratorType(SeqgenIdGenerator.class)
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.TYPE, ElementType.PACKAGE})
public @interface SeqgenGenerator {

    /** The value of an unset numeric attribute. */
    long UNSET = -1;

    /**
     * The sequence name: 1 to 64 of {@code A-Z a-z 0-9 _ . -}. Default: the generator name of
     * {@code @GeneratedValue}, else the entity name in snake_case. Set on a package or class, it gives every
     * id served there the same sequence: one id space shared by those entities.
     *
     * @return the sequence name, or empty
     */
    String sequence() default "";

    /**
     * How counter values become ids, at most one: {@code keyOrder = KeyOrder.BIT_REVERSED} for hotspot-free
     * primary keys on databases that split their key space by ranges (Cloud Spanner). Default: unset (the
     * registry's default, built in {@link KeyOrder#SEQUENTIAL}). Not for {@code int} ids.
     *
     * @return an empty array (unset) or the key order
     */
    KeyOrder[] keyOrder() default {};

    /**
     * The strategy, at most one: {@code strategy = Strategy.SYNC}. Default: unset (the registry's default,
     * built in {@link Strategy#ASYNC_BATCH}). SYNC takes the value inside the session's transaction, so a
     * rollback undoes it and committed ids are gapless; the others reserve in transactions of their own.
     *
     * @return an empty array (unset) or the strategy
     */
    Strategy[] strategy() default {};

    /**
     * The first value of a sequence whose row does not exist yet, at least 0. An existing row is never
     * changed. Default: unset.
     *
     * @return the initial value, or {@link #UNSET}
     */
    long initialValue() default UNSET;

    /**
     * The largest value handed out, at least 1; reaching it fails the insert with
     * {@link dev.seqgen.SequenceExhaustedException}, never wraps. Default: unset ({@code int} ids get
     * {@link SequenceSettings#INT_MAX_VALUE} at most).
     *
     * @return the maximum value, or {@link #UNSET}
     */
    long maxValue() default UNSET;
}
