/**
 * seqgen's API: named sequences of unique {@code long} values ({@link dev.seqgen.Sequence}) shared through a
 * {@link dev.seqgen.SequenceRegistry}, their settings ({@link dev.seqgen.SequenceSettings}), the four strategies of
 * {@link dev.seqgen.Strategy}, and the exceptions seqgen throws.
 */
@NullMarked
package dev.seqgen;

import org.jspecify.annotations.NullMarked;
