package dev.seqgen.hibernate;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import org.hibernate.annotations.ValueGenerationType;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes seqgen generate a business number on an entity attribute that is not the id: a {@code long}/{@code Long}
 * or {@code int}/{@code Integer} taken from a seqgen {@link dev.seqgen.Sequence} when Hibernate executes the
 * entity's INSERT, that is at flush, immediately before the insert statement is added to the batch or sent.
 *
 * <pre>{@code
 * @Entity
 * public class Invoice {
 *     @Id @GeneratedValue @SeqgenGenerator(strategy = Strategy.ASYNC_BATCH)
 *     private Long id;                                  // a surrogate id, known at persist()
 *
 *     @SeqgenNumber(sequence = "invoice_numbers", strategy = Strategy.SYNC)
 *     @Column(nullable = false, updatable = false, unique = true)
 *     private Long number;                              // gapless, set at flush
 * }
 * }</pre>
 *
 * <p>The number is taken at the insert, not at {@code persist()}: a {@code @PrePersist} method sees none, a
 * {@code @PostPersist} method does; a value set before is replaced, and updates never change it. <b>SYNC</b>
 * increments the row in the session's transaction, once per flush and sequence before the flush's first statement:
 * numbers of one flush are consecutive, a rollback undoes them, committed numbers are gapless (see
 * {@code docs/business-numbers.md}). The other strategies take {@link dev.seqgen.Sequence#next()}: unique, never
 * gapless.
 *
 * <p><b>Sequence name</b>: {@link #sequence()}, else the root entity's name and the attribute's in snake_case
 * ({@code Invoice.number} becomes {@code invoice_number}). <b>Settings</b> resolve as for {@link SeqgenGenerator};
 * for {@code int} attributes the maximum value is at most {@link SequenceSettings#INT_MAX_VALUE}.
 */
@ValueGenerationType(generatedBy = SeqgenNumberGenerator.class)
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface SeqgenNumber {

    /**
     * The sequence name: 1 to 64 of {@code A-Z a-z 0-9 _ . -}. Default: entity and attribute names in
     * snake_case ({@code invoice_number}).
     *
     * @return the sequence name, or empty
     */
    String sequence() default "";

    /**
     * Splits the sequence into series, counters of their own, by attributes of the entity being inserted: each
     * series has the sequence's settings and guarantees ({@code SYNC}: gapless and ordered within the series),
     * starts at the initial value or above the numbers the table already holds for it, and is created on first
     * use. An entry is an attribute's name ({@code "company"}: its value, a {@code String}, a whole number or an
     * enum's name), or a date attribute's name followed by {@code :year} or {@code :month}
     * ({@code "issueDate:year"}: the year, or year and month, of the entity's own {@code LocalDate} or
     * {@code LocalDateTime}, never of the clock). The key of a series is its parts joined by {@code /}, the
     * tenant's first (see {@link #perTenant()}): {@code acme/IT01/2026}. A value that is null, empty or holds a
     * character a key cannot hold ({@code /} or {@code #} among them) fails the insert naming the entity, the
     * attribute and the value, before the flush sends anything. Default: none.
     *
     * @return the attributes, in key order
     */
    String[] seriesBy() default {};

    /**
     * The pattern of a formatted number, for a {@code String} attribute: literal text with {@code {number}} (the
     * counter) or {@code {number:6}} (zero-padded to 6 digits) once, and any part of the series key by its
     * {@link #seriesBy()} entry or {@code {tenant}}: {@code "INV-{issueDate:year}-{number:6}"} gives
     * {@code INV-2026-000042}, {@code "{issueDate:year}/{number}"} gives {@code 2026/42}. The counter underneath is
     * the sequence's (or the series') row, numeric as always; the numbers a table already holds are read back with
     * the pattern, so that a series continues above them. Checked at start-up: required on a {@code String}
     * attribute, refused on a number. A counter past the padding's width is written in full. Default: none.
     *
     * @return the pattern, or empty
     */
    String format() default "";

    /**
     * Whether a multi-tenant entity is numbered per tenant, the session's tenant: an entity of Hibernate's partitioned
     * multi-tenancy (an attribute annotated {@code @org.hibernate.annotations.TenantId}), or any entity where each
     * tenant has a schema or database of its own (a {@code MultiTenantConnectionProvider}). {@code true} gives each
     * tenant series of its own, so that one tenant's numbers are gapless and tell nothing of another's; {@code false}
     * shares the series across tenants (with a schema or database per tenant and {@code SYNC}, seqgen's table must
     * then be qualified by a schema every tenant's connection reaches). No effect on an application without tenants.
     * Default: true.
     *
     * @return whether each tenant has its own series
     */
    boolean perTenant() default true;

    /**
     * The strategy, at most one: {@code strategy = Strategy.SYNC} for gapless numbers. Default: unset (the
     * registry's default, built in {@link Strategy#ASYNC_BATCH}).
     *
     * @return an empty array (unset) or the strategy
     */
    Strategy[] strategy() default {};

    /**
     * The first value of a sequence whose row does not exist yet, at least 0. Default: unset.
     *
     * @return the initial value, or {@link SeqgenGenerator#UNSET}
     */
    long initialValue() default SeqgenGenerator.UNSET;

    /**
     * The largest value handed out, at least 1; reaching it fails the flush with
     * {@link dev.seqgen.SequenceExhaustedException}. Default: unset.
     *
     * @return the maximum value, or {@link SeqgenGenerator#UNSET}
     */
    long maxValue() default SeqgenGenerator.UNSET;
}
