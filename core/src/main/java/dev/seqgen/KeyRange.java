package dev.seqgen;

/**
 * A closed range of values a {@link KeyOrder#BIT_REVERSED bit-reversed} sequence never hands out (the
 * {@link Setting#SKIP_RANGE skip-range} setting, as Cloud Spanner's {@code skip_range_min/max}): a counter whose key
 * falls in it is passed over. Written {@code min..max} ({@code 1..99999}) or {@code none}.
 */
public final class KeyRange {

    /** No range: every value may be handed out (the default). */
    public static final KeyRange NONE = new KeyRange(1, 0);

    /** Half of the positive {@code long} values, so at most every other counter is passed over. */
    static final long LARGEST_WIDTH = 1L << 62;

    private final long min;
    private final long max;

    private KeyRange(long min, long max) {
        this.min = min;
        this.max = max;
    }

    /**
     * {@return the range from {@code min} to {@code max}, both included}
     * @throws SequenceConfigurationException if {@code min < 1}, {@code max < min}, or it exceeds {@code 2^62} values
     */
    public static KeyRange of(long min, long max) {
        if (min < 1 || max < min || max - min >= LARGEST_WIDTH) {
            throw invalid(min + ".." + max);
        }
        return new KeyRange(min, max);
    }

    /**
     * {@return the range configuration writes as {@code min..max} or {@code none}}
     * @throws SequenceConfigurationException if the text is neither, or breaks the rule of {@link #of(long, long)}
     */
    public static KeyRange valueOf(String text) {
        String trimmed = text.trim();
        if (trimmed.equalsIgnoreCase("none") || trimmed.isEmpty()) {
            return NONE;
        }
        int dots = trimmed.indexOf("..");
        if (dots < 0) {
            throw invalid(text);
        }
        try {
            return of(Long.parseLong(trimmed.substring(0, dots).trim()),
                    Long.parseLong(trimmed.substring(dots + 2).trim()));
        } catch (NumberFormatException e) {
            throw (SequenceConfigurationException) invalid(text).initCause(e);
        }
    }

    private static SequenceConfigurationException invalid(String value) {
        return new SequenceConfigurationException("skip-range", value, Setting.SKIP_RANGE.allowed());
    }

    /** {@return whether the range is {@link #NONE}} */
    public boolean isEmpty() {
        return max < min;
    }

    /** {@return whether {@code min <= value <= max}} */
    public boolean contains(long value) {
        return value >= min && value <= max;
    }

    /** {@return the smallest value of the range (undefined for {@link #NONE})} */
    public long min() {
        return min;
    }

    /** {@return the largest value of the range (undefined for {@link #NONE})} */
    public long max() {
        return max;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange that && (isEmpty() ? that.isEmpty() : min == that.min && max == that.max);
    }

    @Override
    public int hashCode() {
        return isEmpty() ? 0 : Long.hashCode(min) * 31 + Long.hashCode(max);
    }

    /** {@return {@code min..max}, or {@code none}} */
    @Override
    public String toString() {
        return isEmpty() ? "none" : min + ".." + max;
    }
}
