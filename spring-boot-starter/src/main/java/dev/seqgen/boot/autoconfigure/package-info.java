/**
 * Auto-configuration for seqgen: a registry from the {@code seqgen.*} properties, and the failure analyses of its
 * start-up errors.
 */
@NullMarked
package dev.seqgen.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
