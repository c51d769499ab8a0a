/** seqgen's API: {@link dev.seqgen.Sequence}s shared through a {@link dev.seqgen.SequenceRegistry}. */
@NullMarked
package dev.seqgen;

import org.jspecify.annotations.NullMarked;
