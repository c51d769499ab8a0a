/**
 * The Cloud Spanner store: {@link dev.seqgen.spanner.SpannerSequenceStore} keeps each sequence as one row of
 * a table in a Spanner database and serves the four strategies of {@link dev.seqgen.Strategy}, SYNC inside
 * the caller's {@link com.google.cloud.spanner.TransactionContext}.
 */
@NullMarked
package dev.seqgen.spanner;

import org.jspecify.annotations.NullMarked;
