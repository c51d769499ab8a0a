/**
 * The store SPI: {@link dev.seqgen.spi.SequenceStore}, where the counter of each sequence lives, with the name rules
 * and the arithmetic of the maximum value that every store shares.
 */
@NullMarked
package dev.seqgen.spi;

import org.jspecify.annotations.NullMarked;
