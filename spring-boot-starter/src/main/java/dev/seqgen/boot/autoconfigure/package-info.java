/**
 * Auto-configuration for seqgen: a {@link dev.seqgen.SequenceRegistry} configured by the {@code seqgen.*} properties
 * over the JDBC, Cloud Spanner or application's own store and handed to Hibernate, with the failure analyses of
 * seqgen's start-up errors.
 */
@NullMarked
package dev.seqgen.boot.autoconfigure;

import org.jspecify.annotations.NullMarked;
