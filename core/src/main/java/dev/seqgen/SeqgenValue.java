package dev.seqgen;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives the annotated {@code long}/{@code Long} or {@code int}/{@code Integer} property its value from a seqgen
 * {@link Sequence} when the object holding it is inserted by Spring Data JDBC (docs/spring-data-jdbc.md). The rest is
 * configuration ({@code seqgen.sequences.<name>.*}), whose strategy, where not the registry's default, wins.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
public @interface SeqgenValue {

    /**
     * The sequence name (1 to 64 of {@code A-Z a-z 0-9 _ . -}); default: for an id the table name in lower case,
     * otherwise table and column joined by an underscore ({@code invoice_number}).
     */
    String sequence() default "";

    /** The strategy, at most one; default: unset (the registry's default, built in {@link Strategy#ASYNC_BATCH}). */
    Strategy[] strategy() default {};

    /**
     * The properties of the inserted object's own class (not of an embedded object) whose values key its series, in
     * key order: a {@code String}, whole number or enum property's name, or a {@code LocalDate}/{@code LocalDateTime}
     * property's name with {@code :year} or {@code :month}. A null or empty part, or one holding {@code /} or
     * {@code #}, fails the save with nothing written. Default: none. See docs/business-numbers.md.
     */
    String[] seriesBy() default {};
}
