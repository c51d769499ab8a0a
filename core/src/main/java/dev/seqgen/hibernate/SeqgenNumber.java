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
 * <p><b>When the number is taken.</b> Not at {@code persist()}: the attribute keeps the value it had (null or
 * 0) until the session flushes, and holds the number after {@code flush()}, after a query that flushed the
 * session (AUTO flush mode), or after {@code commit()}: a {@code @PrePersist} method sees no number (the id,
 * generated at {@code persist()}, is there), a {@code @PostPersist} method, which runs after the insert, sees it.
 * Any value the application set before the insert is
 * replaced. The number is generated once, on insert; it is not changed by updates (map the column
 * {@code updatable = false} so that nobody changes it by mistake).
 *
 * <p><b>SYNC</b> increments the sequence row on the session's JDBC connection, in the session's transaction, in
 * that flush: once per flush and sequence, for all its numbered inserts, before the flush sends its first
 * statement (so JDBC batches, and Spanner's batched DML, stay whole). The row stays locked from the first such
 * flush of the transaction to its commit or rollback, which with the usual flush at commit is only the flush
 * and the commit: a gapless sequence then serves about 1 / (flush-to-commit time) transactions per second
 * instead of 1 / (whole transaction). Numbers taken in one flush are consecutive, in the order Hibernate
 * executes the inserts; a rollback undoes them, so committed numbers are gapless and become visible in number
 * order. See {@code docs/business-numbers.md}.
 *
 * <p><b>ASYNC, BATCH, ASYNC_BATCH</b> take {@link dev.seqgen.Sequence#next()} at the insert: unique and, per
 * JVM, increasing, never gapless.
 *
 * <p><b>Sequence name</b>, first that applies: {@link #sequence()}; otherwise the JPA entity name of the root
 * entity and the attribute name in snake_case, joined by an underscore ({@code Invoice.number} becomes
 * {@code invoice_number}). <b>Settings</b> are resolved exactly as for {@link SeqgenGenerator}: a value the
 * registry configures for this sequence name wins over an attribute here, which wins over the registry's
 * default. For {@code int} attributes the maximum value is at most {@link SequenceSettings#INT_MAX_VALUE}.
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
     * The strategy, at most one: {@code strategy = Strategy.SYNC} for gapless numbers. Default: unset (the
     * registry's default, built in {@link Strategy#ASYNC_BATCH}).
     *
     * @return an empty array (unset) or the strategy
     */
    Strategy[] strategy() default {};

    /**
     * Values reserved per store transaction by BATCH and ASYNC_BATCH, at least 1. Default: unset.
     *
     * @return the block size, or {@link SeqgenGenerator#UNSET}
     */
    int blockSize() default (int) SeqgenGenerator.UNSET;

    /**
     * Values left in the block at which ASYNC_BATCH refills in the background, less than the block size.
     * Default: unset; a quarter of {@link #blockSize()} when only that is set.
     *
     * @return the low watermark, or {@link SeqgenGenerator#UNSET}
     */
    int lowWatermark() default (int) SeqgenGenerator.UNSET;

    /**
     * Longest wait for a value, in milliseconds, before the flush fails with
     * {@link dev.seqgen.SequenceUnavailableException}; at least 1. Default: unset.
     *
     * @return the acquire timeout in milliseconds, or {@link SeqgenGenerator#UNSET}
     */
    long acquireTimeoutMillis() default SeqgenGenerator.UNSET;

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

    /**
     * Whether the sequence adapts its block size (and for ASYNC_BATCH its refill point), at most one. Default:
     * unset.
     *
     * @return an empty array (unset) or the flag
     */
    boolean[] adaptive() default {};

    /**
     * The largest block an adaptive sequence reserves, at least the block size. Default: unset.
     *
     * @return the largest adaptive block, or {@link SeqgenGenerator#UNSET}
     */
    int adaptiveMaxBlockSize() default (int) SeqgenGenerator.UNSET;

    /**
     * The refill interval an adaptive sequence steers its block size towards, in milliseconds, at least 1.
     * Default: unset.
     *
     * @return the target refill interval in milliseconds, or {@link SeqgenGenerator#UNSET}
     */
    long adaptiveTargetRefillIntervalMillis() default SeqgenGenerator.UNSET;
}
