/**
 * Actuator support for seqgen: the {@code seqgen} endpoint and the health indicator, which report the store row,
 * the block in hand and the counters of each sequence.
 */
@NullMarked
package dev.seqgen.boot.actuate;

import org.jspecify.annotations.NullMarked;
