package dev.seqgen;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes seqgen give the annotated property its value from a seqgen {@link Sequence} when the object holding it is
 * inserted: the id of a new aggregate, or a business number beside it. A {@code long}/{@code Long} or
 * {@code int}/{@code Integer} property. It names no framework type, so a domain class needs nothing but seqgen-core;
 * the framework integration that reads it is the Spring Data JDBC support of {@code seqgen-spring-boot-starter}
 * (JPA entities use {@code dev.seqgen.hibernate.SeqgenGenerator} and {@code SeqgenNumber} instead).
 *
 * <pre>{@code
 * @Table("invoice")
 * public class Invoice {
 *     @Id @SeqgenValue                                      // sequence "invoice", the default strategy
 *     private Long id;
 *
 *     @SeqgenValue(sequence = "invoice_numbers", strategy = Strategy.SYNC)
 *     private Long number;                                  // gapless: taken in the caller's transaction
 * }
 * }</pre>
 *
 * <p>Only the structure is declared here: the sequence and, where the code depends on it, the strategy. Everything
 * else (block size, initial value, maximum, ...) is configuration ({@code seqgen.sequences.<name>.*}). A strategy
 * configured for the sequence name where it differs from the registry's default wins over the one here, which wins
 * over the registry's default, as for {@code SeqgenGenerator}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
public @interface SeqgenValue {

    /**
     * The sequence name: 1 to 64 of {@code A-Z a-z 0-9 _ . -}. Default: for an id, the name of the aggregate's table
     * (in lower case); for another property, the table and column names joined by an underscore
     * ({@code invoice_number}). Aggregates that use one name share one sequence: one value space.
     *
     * @return the sequence name, or empty
     */
    String sequence() default "";

    /**
     * The strategy, at most one: {@code strategy = Strategy.SYNC} for gapless numbers. Default: unset (the registry's
     * default, built in {@link Strategy#ASYNC_BATCH}).
     *
     * @return an empty array (unset) or the strategy
     */
    Strategy[] strategy() default {};

    /**
     * Splits the sequence into series, counters of their own, by properties of the object being inserted (of its
     * own class, not of an embedded object): each series has the sequence's settings and guarantees ({@code SYNC}:
     * gapless within the series), starts above the values the table already holds for it, and is created on first
     * use. An entry is a property's name ({@code "company"}: a {@code String}, a whole number or an enum, stored by
     * name), or a {@code LocalDate} or {@code LocalDateTime} property's name followed by {@code :year} or
     * {@code :month} ({@code "issueDate:year"}: the period of the object's own date). The series key is the parts
     * joined by {@code /}; a part that is null, empty or holds {@code /} or {@code #} fails the save naming the
     * aggregate, the property and the value, with nothing written. Default: none.
     *
     * @return the properties, in key order
     */
    String[] seriesBy() default {};
}
