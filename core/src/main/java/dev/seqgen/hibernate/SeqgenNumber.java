package dev.seqgen.hibernate;

import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import org.hibernate.annotations.ValueGenerationType;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes seqgen generate a business number on an entity attribute that is not the id ({@code long}/{@code Long},
 * {@code int}/{@code Integer}, or a formatted {@code String}) when Hibernate executes the entity's INSERT, at flush:
 * a {@code @PrePersist} method sees none, a value set before is replaced, updates never change it. SYNC increments
 * the row in the session's transaction once per flush and sequence: committed numbers are gapless, one flush's
 * consecutive. Settings resolve as for {@link SeqgenGenerator}; for {@code int} attributes the maximum value is at
 * most {@link SequenceSettings#INT_MAX_VALUE}. See docs/business-numbers.md.
 */
@ValueGenerationType(generatedBy = SeqgenNumberGenerator.class)
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface SeqgenNumber {

    /** The sequence name, 1 to 64 of {@code A-Z a-z 0-9 _ . -}; default: root entity and attribute in snake_case. */
    String sequence() default "";

    /**
     * Splits the sequence into series (counters with its settings and guarantees) by the entity's attributes, in key
     * order: {@code "company"}, or a date's {@code "issueDate:year"} or {@code ":month"}. Default: none.
     */
    String[] seriesBy() default {};

    /** The pattern of a formatted number, required on a {@code String}: {@code "INV-{issueDate:year}-{number:6}"}. */
    String format() default "";

    /**
     * Whether a multi-tenant entity ({@code @TenantId}, or a schema or database per tenant) has series per tenant;
     * {@code false} shares them (with schemas per tenant and SYNC, qualify seqgen's table by a schema). Default: true.
     */
    boolean perTenant() default true;

    /** The strategy, at most one (SYNC for gapless numbers). Default: empty, the registry's. */
    Strategy[] strategy() default {};

    /** The first value of a sequence whose row does not exist yet, at least 0; default {@code UNSET}. */
    long initialValue() default SeqgenGenerator.UNSET;

    /** The largest value, at least 1; past it flushes fail ({@link SequenceExhaustedException}); default UNSET. */
    long maxValue() default SeqgenGenerator.UNSET;
}
