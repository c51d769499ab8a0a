/** Actuator support for seqgen: the {@code seqgen} endpoint and health indicator. */
@NullMarked
package dev.seqgen.boot.actuate;

import org.jspecify.annotations.NullMarked;
