package dev.seqgen.internal;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.Ticker;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;

/**
 * {@link Strategy#BATCH}: one store transaction per block; the caller that finds the block empty reserves
 * the next one while the others wait for it (see {@link BlockSequence} for the hand-off). Unique; ordered
 * per JVM only; not gapless: a stopped JVM loses at most the rest of one block, less what close gives back.
 * Throughput is bounded by block size over the store round trip.
 */
final class BatchSequence extends BlockSequence {

    BatchSequence(String name, SequenceSettings settings, SequenceStore store, Ticker ticker) {
        super(name, settings, store, ticker);
    }

    @Override
    void lowWatermarkReached() {
        // BATCH blocks carry no trigger position.
    }

    @Override
    boolean nextBlockReady() {
        return false;
    }

    @Override
    Block obtainNextBlock(Block exhausted, long deadline) {
        ReservedRange range = reserve(sizeNextReservation(), deadline);
        return new Block(range.first(), range.end(), -1);
    }

    @Override
    void releaseUnused(Block block, long firstUnused) {
        giveBack(firstUnused, block.end);
    }
}
