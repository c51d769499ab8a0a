package dev.seqgen.spi;

/**
 * The values {@code [first, end)} a store has handed out with one atomic change of the counter row; {@code end} is the
 * row's {@code next_value} right after the reservation.
 */
public record ReservedRange(long first, long end) {

    /** @throws IllegalArgumentException if {@code end <= first} */
    public ReservedRange {
        if (end <= first) {
            throw new IllegalArgumentException("empty range [" + first + ", " + end + ")");
        }
    }

    /** {@return {@code count}, the number of values asked for, checked: below 1 throws IllegalArgumentException} */
    public static long requireCount(long count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, was " + count);
        }
        return count;
    }

    /**
     * {@return how many of {@code count} values from the row's {@code next} fit at or below {@code maxValue}}, 0 when
     * exhausted, without overflow for any maximum up to {@link dev.seqgen.SequenceSettings#LARGEST_MAX_VALUE}.
     */
    public static long fitting(long next, long count, long maxValue) {
        return next > maxValue ? 0 : Math.min(count, maxValue - next + 1);
    }

    /**
     * {@return the largest {@code next_value} from which {@code count} values fit at or below {@code maxValue}}, the
     * guard of a conditional increment, computed here so no database evaluates an overflowing sum.
     */
    public static long lastStart(long count, long maxValue) {
        return maxValue - count + 1;
    }

    /** {@return the block of {@code count} values at {@code first}, cut at {@code maxValue}} */
    public static ReservedRange upTo(long first, long count, long maxValue) {
        return new ReservedRange(first, first + fitting(first, count, maxValue));
    }

    /** {@return the number of values in the range, {@code end - first}} */
    public long count() {
        return end - first;
    }
}
