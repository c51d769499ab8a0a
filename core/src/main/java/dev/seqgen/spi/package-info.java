/** The store SPI: {@link dev.seqgen.spi.SequenceStore}, where each sequence's counter lives. */
@NullMarked
package dev.seqgen.spi;

import org.jspecify.annotations.NullMarked;
