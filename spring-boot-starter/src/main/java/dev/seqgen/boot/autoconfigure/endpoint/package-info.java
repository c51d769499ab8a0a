/** Auto-configuration for seqgen's actuator endpoint. */
@NullMarked
package dev.seqgen.boot.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
