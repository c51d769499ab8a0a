/**
 * Entities for the package-level form: every {@code @GeneratedValue} id here without a generator annotation
 * of its own is served by seqgen, BATCH (blocks of the configured size).
 */
@SeqgenGenerator(strategy = Strategy.BATCH)
package dev.seqgen.hibernate.packagelevel;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
