/** Auto-configuration for seqgen: the registry of the {@code seqgen.*} properties and its start-up failure analyses. */
@NullMarked
package dev.seqgen.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
