/**
 * What an id costs per JPA insert on Cloud Spanner (the emulator): seqgen's bit-reversed ASYNC_BATCH keys beside
 * Spanner's own bit-reversed sequence, as a column default and through Hibernate's sequence generator.
 */
@NullMarked
package dev.seqgen.jmh.spanner;

import org.jspecify.annotations.NullMarked;
