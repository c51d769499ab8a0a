package dev.seqgen;

/**
 * A snapshot of one sequence's counters and of the block it holds.
 *
 * @param issued values handed out by this instance since it was created
 * @param reservationFailures store reservations that failed after their retries
 * @param waits calls that had to wait for the store or for another caller's refill
 * @param discarded values reserved by this instance that will never be used (tails not given back)
 * @param blockFirst first value of the block in hand, or -1 if none
 * @param blockEnd value after the last of the block in hand, or -1 if none
 * @param remaining values left in hand, including a prefetched block
 * @param blockSize the size of the next block this instance will reserve
 * @param refillPoint the values left at which ASYNC_BATCH starts its background refill; 0 for other strategies
 * @param lateRefills ASYNC_BATCH refills that arrived after the block ran out; 0 for other strategies
 * @param highestReserved the highest value this instance has reserved so far, or -1 if none
 * @param capacityUsed the share, 0 to 1, of the range from initial to maximum value reserved up to
 */
public record SequenceStats(String name, Strategy strategy, long issued, long reservations, long reservationFailures,
        long retries, long waits, long discarded, long blockFirst, long blockEnd, long remaining, long blockSize,
        long refillPoint, long lateRefills, long highestReserved, double capacityUsed) {

    /** The statistics of a sequence that holds nothing and has done nothing. */
    static SequenceStats none(String name, Strategy strategy, long blockSize) {
        return new SequenceStats(name, strategy, 0, 0, 0, 0, 0, 0, -1, -1, 0, blockSize, 0, 0, -1, 0.0);
    }

    /**
     * These statistics and {@code other}'s as one, without a block: counts summed, highest reserved and capacity used
     * the larger; with {@code held}, the values in hand summed and block size and refill point the larger too.
     */
    SequenceStats plus(SequenceStats other, boolean held) {
        return new SequenceStats(name, strategy, issued + other.issued, reservations + other.reservations,
                reservationFailures + other.reservationFailures, retries + other.retries, waits + other.waits,
                discarded + other.discarded, -1, -1, held ? remaining + other.remaining : remaining,
                held ? Math.max(blockSize, other.blockSize) : blockSize,
                held ? Math.max(refillPoint, other.refillPoint) : refillPoint, lateRefills + other.lateRefills,
                Math.max(highestReserved, other.highestReserved), Math.max(capacityUsed, other.capacityUsed));
    }
}
