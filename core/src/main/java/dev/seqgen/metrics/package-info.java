/**
 * The metrics SPI: the {@link dev.seqgen.metrics.SequenceMetricsTracker} of each sequence, made by a
 * {@link dev.seqgen.metrics.SequenceMetricsTrackerFactory}, receives the timings of reservations, retries and waits.
 */
@NullMarked
package dev.seqgen.metrics;

import org.jspecify.annotations.NullMarked;
