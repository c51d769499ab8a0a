/**
 * seqgen's metrics with Micrometer: {@link dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory} publishes the
 * meters of every sequence to a {@code MeterRegistry}, and its observations to an {@code ObservationRegistry}. Needs
 * {@code micrometer-core} on the classpath.
 */
@NullMarked
package dev.seqgen.metrics.micrometer;

import org.jspecify.annotations.NullMarked;
