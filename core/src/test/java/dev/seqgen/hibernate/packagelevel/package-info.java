/**
 * Entities for the package-level form: every {@code @GeneratedValue} id here without a generator annotation
 * of its own is served by seqgen, BATCH with blocks of 10.
 */
@SeqgenGenerator(strategy = Strategy.BATCH, blockSize = 10)
package dev.seqgen.hibernate.packagelevel;

import dev.seqgen.Strategy;
import dev.seqgen.hibernate.SeqgenGenerator;
