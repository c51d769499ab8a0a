/** seqgen's metrics and observations with Micrometer (needs {@code micrometer-core}). */
@NullMarked
package dev.seqgen.metrics.micrometer;

import org.jspecify.annotations.NullMarked;
