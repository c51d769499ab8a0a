/** The metrics SPI: a {@link dev.seqgen.metrics.SequenceMetricsTracker} per sequence, made by a factory. */
@NullMarked
package dev.seqgen.metrics;

import org.jspecify.annotations.NullMarked;
