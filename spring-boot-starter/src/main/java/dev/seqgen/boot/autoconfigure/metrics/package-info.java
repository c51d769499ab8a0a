/** Auto-configuration for seqgen's metrics with Micrometer. */
@NullMarked
package dev.seqgen.boot.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
