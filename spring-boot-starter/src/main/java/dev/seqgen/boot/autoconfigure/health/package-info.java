/** Auto-configuration for seqgen's health indicator. */
@NullMarked
package dev.seqgen.boot.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
