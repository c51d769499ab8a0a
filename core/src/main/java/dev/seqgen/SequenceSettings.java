package dev.seqgen;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The validated settings of one sequence; immutable. A bad value fails with a {@link SequenceConfigurationException}
 * naming the setting's {@link Setting#key() key}. Equal when every {@link Setting} has the same value and the same
 * derived defaults are left unset ({@link #lowWatermarkSet()}, {@link #adaptiveSet()}, {@link #kindSet()}).
 */
public final class SequenceSettings {

    /** The largest allowed maximum value: the counter row must hold the maximum plus one. */
    public static final long LARGEST_MAX_VALUE = Long.MAX_VALUE - 1;

    /** The maximum value for sequences that serve {@code int} ids. */
    public static final long INT_MAX_VALUE = Integer.MAX_VALUE;

    private static final SequenceSettings DEFAULTS = new Builder().build();

    private final Strategy strategy;
    private final @Nullable CounterKind kind;
    private final KeyOrder keyOrder;
    private final KeyRange skipRange;
    private final int blockSize;
    /** {@link Builder#UNSET} unless set. */
    private final int lowWatermark;
    private final Duration acquireTimeout;
    private final long initialValue;
    private final long maxValue;
    private final @Nullable Boolean adaptive;
    private final int adaptiveMaxBlockSize;
    private final Duration adaptiveTargetRefillInterval;
    private final boolean allowWeakerStrategy;

    private SequenceSettings(Builder builder) {
        this.strategy = builder.strategy;
        this.kind = builder.kind;
        this.keyOrder = builder.keyOrder;
        this.skipRange = builder.skipRange;
        this.blockSize = builder.blockSize;
        this.lowWatermark = builder.lowWatermark;
        this.acquireTimeout = builder.acquireTimeout;
        this.initialValue = builder.initialValue;
        this.maxValue = builder.maxValue;
        this.adaptive = builder.adaptive;
        this.adaptiveMaxBlockSize = builder.adaptiveMaxBlockSize;
        this.adaptiveTargetRefillInterval = builder.adaptiveTargetRefillInterval;
        this.allowWeakerStrategy = builder.allowWeakerStrategy;
    }

    /** {@return the settings with every value at its default} */
    public static SequenceSettings defaults() {
        return DEFAULTS;
    }

    /** {@return a builder with every value at its default} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder that starts from these settings} */
    public Builder toBuilder() {
        Builder builder = new Builder();
        Arrays.stream(Setting.values()).filter(setting -> !derived(setting))
                .forEach(setting -> setting.apply(builder, setting.valueIn(this)));
        return builder;
    }

    /** Whether the setting was left at a default that follows from other settings or the registry. */
    boolean derived(Setting setting) {
        return setting == Setting.LOW_WATERMARK && !lowWatermarkSet()
                || setting == Setting.ADAPTIVE_ENABLED && !adaptiveSet()
                || setting == Setting.KIND && !kindSet();
    }

    /** @return the strategy; default {@link Strategy#ASYNC_BATCH} */
    public Strategy strategy() {
        return strategy;
    }

    /** {@return where the values are counted; default TABLE, and unless set the registry's primary store serves} */
    public CounterKind kind() {
        return kind != null ? kind : CounterKind.TABLE;
    }

    /** {@return whether the kind was set rather than left at its default} */
    public boolean kindSet() {
        return kind != null;
    }

    /** {@return how counter values become the values handed out; default SEQUENTIAL} */
    public KeyOrder keyOrder() {
        return keyOrder;
    }

    /** {@return the keys a bit-reversed sequence never hands out (their counters are passed over); default NONE} */
    public KeyRange skipRange() {
        return skipRange;
    }

    /**
     * {@return these settings} Checks the rules between settings that may come from different sources: a
     * {@link SequenceConfigurationException} names {@code skip-range} and the sequence if set on a sequential one.
     */
    public SequenceSettings validateFor(String sequence) {
        if (!skipRange.isEmpty() && keyOrder != KeyOrder.BIT_REVERSED) {
            throw new SequenceConfigurationException("skip-range", skipRange, "none for sequence '" + sequence
                    + "', whose key-order is " + keyOrder.externalName() + " (a sequential sequence starts above a"
                    + " table's highest id instead); a range min..max needs key-order bit-reversed");
        }
        return this;
    }

    /** @return the number of values reserved per store transaction (BATCH, ASYNC_BATCH); default 1000 */
    public int blockSize() {
        return blockSize;
    }

    /** {@return the values left at which ASYNC_BATCH refills (adaptive: the lowest point); default block size / 4} */
    public int lowWatermark() {
        return lowWatermarkSet() ? lowWatermark : blockSize / 4;
    }

    /** {@return whether the low watermark was set (it then fixes the refill point, scaled to the block)} */
    public boolean lowWatermarkSet() {
        return lowWatermark != Builder.UNSET;
    }

    /** @return the longest a caller waits for a value before it gets an exception; default 5 s */
    public Duration acquireTimeout() {
        return acquireTimeout;
    }

    /** @return the first value of a sequence whose row does not exist yet; default 1 */
    public long initialValue() {
        return initialValue;
    }

    /** @return the largest value the sequence hands out; default {@link #LARGEST_MAX_VALUE} */
    public long maxValue() {
        return maxValue;
    }

    /** {@return whether the block size (and ASYNC_BATCH's refill point) adapts; default on for ASYNC_BATCH only} */
    public boolean adaptive() {
        return adaptive != null ? adaptive : strategy == Strategy.ASYNC_BATCH;
    }

    /** {@return whether adaptive sizing was set rather than left at its default} */
    public boolean adaptiveSet() {
        return adaptive != null;
    }

    /** {@return the largest block an adaptive sequence reserves (below the block size: no growth); default 100000} */
    public int adaptiveMaxBlockSize() {
        return adaptiveMaxBlockSize;
    }

    /** @return the refill interval an adaptive sequence steers towards; default 1 s */
    public Duration adaptiveTargetRefillInterval() {
        return adaptiveTargetRefillInterval;
    }

    /** {@return whether the configured strategy may replace a SYNC one the code declares; default false} */
    public boolean allowWeakerStrategy() {
        return allowWeakerStrategy;
    }

    /** {@return the share, 0 to 1, of the values from the initial to the maximum value below {@code nextValue}} */
    public double capacityUsedBelow(long nextValue) {
        double span = (double) (maxValue - initialValue) + 1;
        return Math.max(0.0, Math.min(1.0, (nextValue - initialValue) / span));
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof SequenceSettings that && Arrays.stream(Setting.values()).allMatch(setting ->
                derived(setting) == that.derived(setting) && setting.valueIn(this).equals(setting.valueIn(that)));
    }

    @Override
    public int hashCode() {
        // A derived value follows from the others.
        return Arrays.hashCode(Arrays.stream(Setting.values()).map(setting -> derived(setting) ? null
                : setting.valueIn(this)).toArray());
    }

    @Override
    public String toString() {
        return Arrays.stream(Setting.values()).map(setting -> setting.key() + "=" + setting.valueIn(this))
                .collect(Collectors.joining(", ", "SequenceSettings{", "}"));
    }

    /** Builds {@link SequenceSettings}; each setter checks its own rule, {@link #build()} those relating two. */
    public static final class Builder {

        private static final int UNSET = -1;

        private Strategy strategy = Strategy.ASYNC_BATCH;
        private @Nullable CounterKind kind;
        private KeyOrder keyOrder = KeyOrder.SEQUENTIAL;
        private KeyRange skipRange = KeyRange.NONE;
        private int blockSize = 1000;
        private int lowWatermark = UNSET;
        private Duration acquireTimeout = Duration.ofSeconds(5);
        private long initialValue = 1;
        private long maxValue = LARGEST_MAX_VALUE;
        private @Nullable Boolean adaptive;
        private int adaptiveMaxBlockSize = 100_000;
        private Duration adaptiveTargetRefillInterval = Duration.ofSeconds(1);
        private boolean allowWeakerStrategy;

        private Builder() {
        }

        /** Sets the strategy. Default {@link Strategy#ASYNC_BATCH}. */
        public Builder strategy(Strategy strategy) {
            this.strategy = requireArgument(strategy != null, "strategy", strategy,
                    "one of SYNC, ASYNC, BATCH, ASYNC_BATCH");
            return this;
        }

        /** Sets where the values are counted, not NATIVE_SEQUENCE for SYNC. Default: the registry's store's kind. */
        public Builder kind(CounterKind kind) {
            this.kind = requireArgument(kind != null, "kind", kind, "one of table, native-sequence");
            return this;
        }

        /** Sets how counter values become values. Default SEQUENTIAL; BIT_REVERSED needs an initial value >= 1. */
        public Builder keyOrder(KeyOrder keyOrder) {
            this.keyOrder = requireArgument(keyOrder != null, "key-order", keyOrder, "one of sequential, bit-reversed");
            return this;
        }

        /** Sets the keys a BIT_REVERSED sequence never hands out ({@link #validateFor}). Default: none. */
        public Builder skipRange(KeyRange skipRange) {
            this.skipRange = requireArgument(skipRange != null, "skip-range", skipRange, Setting.SKIP_RANGE.allowed());
            return this;
        }

        /** Sets the values reserved per store transaction (BATCH, ASYNC_BATCH), at least 1. Default 1000. */
        public Builder blockSize(int blockSize) {
            this.blockSize = requireArgument(blockSize >= 1, "block-size", blockSize, "an integer >= 1");
            return this;
        }

        /** Sets the values left when ASYNC_BATCH refills, from 0 to below the block size. Default: block size / 4. */
        public Builder lowWatermark(int lowWatermark) {
            this.lowWatermark = requireArgument(lowWatermark >= 0, "low-watermark", lowWatermark,
                    "an integer >= 0 and < block-size");
            return this;
        }

        /** Sets the longest a caller waits for a value before a {@link SequenceUnavailableException}. Default 5 s. */
        public Builder acquireTimeout(Duration acquireTimeout) {
            this.acquireTimeout = requireArgument(acquireTimeout != null && !acquireTimeout.isNegative()
                    && !acquireTimeout.isZero(), "acquire-timeout", acquireTimeout, "a positive duration");
            return this;
        }

        /** Sets the value a new row starts at, 0 or more; an existing row is not changed. Default 1. */
        public Builder initialValue(long initialValue) {
            this.initialValue = requireArgument(initialValue >= 0, "initial-value", initialValue,
                    "an integer >= 0 and <= max-value");
            return this;
        }

        /** Sets the largest value handed out, 1 to {@link #LARGEST_MAX_VALUE} (the default); it never wraps around. */
        public Builder maxValue(long maxValue) {
            this.maxValue = requireArgument(maxValue >= 1 && maxValue <= LARGEST_MAX_VALUE, "max-value", maxValue,
                    "an integer from 1 to " + LARGEST_MAX_VALUE + " and >= initial-value");
            return this;
        }

        /** Sets whether the block size, and the refill point unless set, adapt. Default: on for ASYNC_BATCH only. */
        public Builder adaptive(boolean adaptive) {
            this.adaptive = adaptive;
            return this;
        }

        /** Sets the largest block an adaptive sequence reserves, >= block size when adaptive is set. Default 100000. */
        public Builder adaptiveMaxBlockSize(int adaptiveMaxBlockSize) {
            this.adaptiveMaxBlockSize = requireArgument(adaptiveMaxBlockSize >= 1, "adaptive.max-block-size",
                    adaptiveMaxBlockSize, "an integer >= block-size");
            return this;
        }

        /** Sets the refill interval an adaptive sequence steers towards, positive. Default 1 s. */
        public Builder adaptiveTargetRefillInterval(Duration interval) {
            this.adaptiveTargetRefillInterval = requireArgument(interval != null && !interval.isNegative()
                    && !interval.isZero(), "adaptive.target-refill-interval", interval, "a positive duration");
            return this;
        }

        /** Sets whether configuration may weaken an annotation's SYNC (else refused at start-up). Default false. */
        public Builder allowWeakerStrategy(boolean allowWeakerStrategy) {
            this.allowWeakerStrategy = allowWeakerStrategy;
            return this;
        }

        /** {@return the settings} A {@link SequenceConfigurationException} names a setting breaking a rule. */
        public SequenceSettings build() {
            requireArgument(kind != CounterKind.NATIVE_SEQUENCE || strategy != Strategy.SYNC, "kind",
                    CounterKind.NATIVE_SEQUENCE.externalName(),
                    "table for a sync sequence: sync takes gapless values in the caller's transaction, and a"
                    + " database sequence's increments cannot be rolled back");
            requireArgument(keyOrder == KeyOrder.SEQUENTIAL || initialValue >= 1, "initial-value", initialValue,
                    "an integer >= 1 with key-order bit-reversed (the image of 0 is 0)");
            requireArgument(lowWatermark == UNSET || lowWatermark < blockSize, "low-watermark", lowWatermark,
                    "an integer >= 0 and < block-size (" + blockSize + ")");
            requireArgument(initialValue <= maxValue, "initial-value", initialValue,
                    "an integer >= 0 and <= max-value (" + maxValue + ")");
            requireArgument(!Boolean.TRUE.equals(adaptive) || adaptiveMaxBlockSize >= blockSize,
                    "adaptive.max-block-size", adaptiveMaxBlockSize,
                    "an integer >= block-size (" + blockSize + ") when adaptive sizing is on");
            return new SequenceSettings(this);
        }

        /** {@return the value, if the condition holds} */
        private static <T> T requireArgument(boolean condition, String setting, T value, String allowed) {
            if (!condition) {
                throw new SequenceConfigurationException(setting, value, allowed);
            }
            return value;
        }
    }
}
