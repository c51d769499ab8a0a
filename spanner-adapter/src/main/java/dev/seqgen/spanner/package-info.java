/**
 * The Cloud Spanner store, {@link dev.seqgen.spanner.SpannerSequenceStore}: a row per sequence, every
 * {@link dev.seqgen.Strategy}, SYNC inside the caller's {@link com.google.cloud.spanner.TransactionContext}.
 */
@NullMarked
package dev.seqgen.spanner;

import org.jspecify.annotations.NullMarked;
