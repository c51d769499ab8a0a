package dev.seqgen.spi;

/**
 * The values {@code [first, end)} a store has handed out with one atomic change of the counter row.
 *
 * @param first the first value
 * @param end the value after the last one; the row's {@code next_value} right after the reservation
 */
public record ReservedRange(long first, long end) {

    /**
     * Checks that the range holds at least one value.
     *
     * @throws IllegalArgumentException if {@code end <= first}
     */
    public ReservedRange {
        if (end <= first) {
            throw new IllegalArgumentException("empty range [" + first + ", " + end + ")");
        }
    }

    /**
     * Returns the number of values in the range.
     *
     * @return {@code end - first}
     */
    public long count() {
        return end - first;
    }
}
