/**
 * The number-series benchmark's invoices, numbered gapless per tenant or on one row shared by every tenant, and its
 * fixture. See {@link dev.seqgen.jmh.SeriesBenchmark}.
 */
package dev.seqgen.jmh.series;
