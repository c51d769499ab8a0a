package dev.seqgen;

import java.time.Duration;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * The validated settings of one sequence. Immutable; created with {@link #builder()}. Every rule is
 * checked when the value is set, and the rules that relate two settings when {@link Builder#build()} runs,
 * so a bad value fails at start-up with a {@link SequenceConfigurationException} that names the setting.
 *
 * <p>Error messages name a setting by its {@link Setting#key() key}; {@link Setting} lists them. Two settings are
 * equal when every {@link Setting} has the same value in both and both leave the same values at their defaults
 * that depend on other settings or on the registry ({@link #lowWatermarkSet()}, {@link #adaptiveSet()},
 * {@link #kindSet()}).
 */
public final class SequenceSettings {

    /** The largest allowed maximum value: the counter row must be able to hold the maximum plus one. */
    public static final long LARGEST_MAX_VALUE = Long.MAX_VALUE - 1;

    /** The maximum value for sequences that serve {@code int} ids. */
    public static final long INT_MAX_VALUE = Integer.MAX_VALUE;

    private static final SequenceSettings DEFAULTS = new Builder().build();

    private final Strategy strategy;
    private final CounterKind kind;
    private final boolean kindExplicit;
    private final KeyOrder keyOrder;
    private final KeyRange skipRange;
    private final int blockSize;
    private final int lowWatermark;
    private final boolean lowWatermarkExplicit;
    private final Duration acquireTimeout;
    private final long initialValue;
    private final long maxValue;
    private final boolean adaptive;
    private final boolean adaptiveExplicit;
    private final int adaptiveMaxBlockSize;
    private final Duration adaptiveTargetRefillInterval;
    private final boolean allowWeakerStrategy;

    private SequenceSettings(Builder builder) {
        this.strategy = builder.strategy;
        this.kindExplicit = builder.kind != null;
        this.kind = kindExplicit ? builder.kind : CounterKind.TABLE;
        this.keyOrder = builder.keyOrder;
        this.skipRange = builder.skipRange;
        this.blockSize = builder.blockSize;
        this.lowWatermarkExplicit = builder.lowWatermark != Builder.UNSET;
        this.lowWatermark = lowWatermarkExplicit ? builder.lowWatermark : builder.blockSize / 4;
        this.acquireTimeout = builder.acquireTimeout;
        this.initialValue = builder.initialValue;
        this.maxValue = builder.maxValue;
        this.adaptiveExplicit = builder.adaptive != null;
        this.adaptive = adaptiveExplicit ? builder.adaptive : builder.strategy == Strategy.ASYNC_BATCH;
        this.adaptiveMaxBlockSize = builder.adaptiveMaxBlockSize;
        this.adaptiveTargetRefillInterval = builder.adaptiveTargetRefillInterval;
        this.allowWeakerStrategy = builder.allowWeakerStrategy;
    }

    /**
     * Returns the settings with every value at its default.
     *
     * @return the default settings
     */
    public static SequenceSettings defaults() {
        return DEFAULTS;
    }

    /**
     * Returns a builder with every value at its default.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns a builder that starts from these settings.
     *
     * @return a new builder holding these values
     */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** @return the strategy; default {@link Strategy#ASYNC_BATCH} */
    public Strategy strategy() {
        return strategy;
    }

    /**
     * Returns where the values are counted: a row of seqgen's table, or a database sequence. Unless
     * {@linkplain #kindSet() set}, the registry serves the sequence from its primary store.
     *
     * @return the counter kind; default {@link CounterKind#TABLE}
     */
    public CounterKind kind() {
        return kind;
    }

    /**
     * Returns whether the kind was set rather than left at its default.
     *
     * @return whether {@link Builder#kind(CounterKind)} set it
     */
    public boolean kindSet() {
        return kindExplicit;
    }

    /**
     * Returns how counter values become the values handed out: as they are, or bit-reversed (hotspot-free primary
     * keys). The counter, blocks, maximum value and adoption work on counter values either way.
     *
     * @return the key order; default {@link KeyOrder#SEQUENTIAL}
     */
    public KeyOrder keyOrder() {
        return keyOrder;
    }

    /**
     * Returns the values a {@link KeyOrder#BIT_REVERSED bit-reversed} sequence never hands out: a counter whose key
     * falls in the range is passed over (one counter value left unused), so keys a table already holds there
     * never collide with the sequence's.
     *
     * @return the range; default {@link KeyRange#NONE}
     */
    public KeyRange skipRange() {
        return skipRange;
    }

    /**
     * Checks the rules between settings that may come from different sources (a skip range needs bit-reversed keys),
     * on a sequence's final settings.
     *
     * @param sequence the sequence's name, for the message
     * @return these settings
     * @throws SequenceConfigurationException naming {@code skip-range} and the sequence if a range is set on a
     *     sequential sequence
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

    /**
     * Returns the values left in a block at which ASYNC_BATCH starts its refill; default a quarter of the block
     * size, then only the lowest refill point of an adaptive sequence.
     *
     * @return the low watermark
     */
    public int lowWatermark() {
        return lowWatermark;
    }

    /**
     * Returns whether the low watermark was set (it then fixes ASYNC_BATCH's refill point, scaled to the block).
     *
     * @return whether {@link Builder#lowWatermark(int)} set it
     */
    public boolean lowWatermarkSet() {
        return lowWatermarkExplicit;
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

    /**
     * Returns whether the sequence adapts to what it measures: its block size to the rate of refills (BATCH and
     * ASYNC_BATCH), and for ASYNC_BATCH also its refill point to the store's latency and the rate values are
     * taken. Default: on for ASYNC_BATCH, off for the other strategies.
     *
     * @return whether the sequence is adaptive
     */
    public boolean adaptive() {
        return adaptive;
    }

    /**
     * Returns whether adaptive sizing was set rather than left at its default (on for ASYNC_BATCH only).
     *
     * @return whether {@link Builder#adaptive(boolean)} set it
     */
    public boolean adaptiveSet() {
        return adaptiveExplicit;
    }

    /**
     * Returns the largest block an adaptive sequence reserves (the largest gap a stop can leave). A value below
     * the block size means the block does not grow.
     *
     * @return the largest adaptive block; default 100000
     */
    public int adaptiveMaxBlockSize() {
        return adaptiveMaxBlockSize;
    }

    /** @return the refill interval an adaptive sequence steers towards; default 1 s */
    public Duration adaptiveTargetRefillInterval() {
        return adaptiveTargetRefillInterval;
    }

    /**
     * Returns whether this configuration's strategy may replace a {@link Strategy#SYNC} strategy that the code
     * declares for the sequence (on {@code @SeqgenGenerator}, {@code @SeqgenNumber} or {@code @SeqgenValue}),
     * giving up its gapless numbers. Without it, such a configuration is refused at start-up, naming both
     * sources.
     *
     * @return whether the configuration may weaken a declared SYNC strategy; default false
     */
    public boolean allowWeakerStrategy() {
        return allowWeakerStrategy;
    }

    /**
     * Returns the share of the range from the initial value to the maximum value that lies below
     * {@code nextValue}: how much of the sequence is used up when a row (or a generator) is there, from 0 to 1.
     *
     * @param nextValue the next value not handed out yet
     * @return the share used, from 0 to 1
     */
    public double capacityUsedBelow(long nextValue) {
        double span = (double) (maxValue - initialValue) + 1;
        return Math.max(0.0, Math.min(1.0, (nextValue - initialValue) / span));
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SequenceSettings that)) {
            return false;
        }
        if (lowWatermarkExplicit != that.lowWatermarkExplicit || adaptiveExplicit != that.adaptiveExplicit
                || kindExplicit != that.kindExplicit) {
            return false;
        }
        for (Setting setting : Setting.values()) {
            if (!setting.valueIn(this).equals(setting.valueIn(that))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int hash = (Boolean.hashCode(lowWatermarkExplicit) * 31 + Boolean.hashCode(adaptiveExplicit)) * 31
                + Boolean.hashCode(kindExplicit);
        for (Setting setting : Setting.values()) {
            hash = hash * 31 + setting.valueIn(this).hashCode();
        }
        return hash;
    }

    /** Every setting by its key: {@code SequenceSettings{strategy=ASYNC_BATCH, block-size=1000, ...}}. */
    @Override
    public String toString() {
        StringJoiner settings = new StringJoiner(", ", "SequenceSettings{", "}");
        for (Setting setting : Setting.values()) {
            settings.add(setting.key() + "=" + setting.valueIn(this));
        }
        return settings.toString();
    }

    /** Builds {@link SequenceSettings}; each setter checks its own rule and states its default. */
    public static final class Builder {

        private static final int UNSET = -1;

        private Strategy strategy = Strategy.ASYNC_BATCH;
        /** Null: the default, the kind of the registry's store. */
        private @Nullable CounterKind kind;
        private KeyOrder keyOrder = KeyOrder.SEQUENTIAL;
        private KeyRange skipRange = KeyRange.NONE;
        private int blockSize = 1000;
        private int lowWatermark = UNSET;
        private Duration acquireTimeout = Duration.ofSeconds(5);
        private long initialValue = 1;
        private long maxValue = LARGEST_MAX_VALUE;
        /** Null: the default, on for ASYNC_BATCH only. */
        private @Nullable Boolean adaptive;
        private int adaptiveMaxBlockSize = 100_000;
        private Duration adaptiveTargetRefillInterval = Duration.ofSeconds(1);
        private boolean allowWeakerStrategy;

        private Builder() {
        }

        private Builder(SequenceSettings settings) {
            this.strategy = settings.strategy;
            this.kind = settings.kindExplicit ? settings.kind : null;
            this.keyOrder = settings.keyOrder;
            this.skipRange = settings.skipRange;
            this.blockSize = settings.blockSize;
            this.lowWatermark = settings.lowWatermarkExplicit ? settings.lowWatermark : UNSET;
            this.acquireTimeout = settings.acquireTimeout;
            this.initialValue = settings.initialValue;
            this.maxValue = settings.maxValue;
            this.adaptive = settings.adaptiveExplicit ? settings.adaptive : null;
            this.adaptiveMaxBlockSize = settings.adaptiveMaxBlockSize;
            this.adaptiveTargetRefillInterval = settings.adaptiveTargetRefillInterval;
            this.allowWeakerStrategy = settings.allowWeakerStrategy;
        }

        /**
         * Sets the strategy. Default {@link Strategy#ASYNC_BATCH}.
         *
         * @param strategy the strategy
         * @return this builder
         * @throws SequenceConfigurationException if {@code strategy} is null
         */
        public Builder strategy(Strategy strategy) {
            requireArgument(strategy != null, "strategy", strategy, "one of SYNC, ASYNC, BATCH, ASYNC_BATCH");
            this.strategy = strategy;
            return this;
        }

        /**
         * Sets where the values are counted. Default: the kind of the store the registry is built over (for
         * SYNC, its table store if it has one); {@link CounterKind#NATIVE_SEQUENCE} cannot serve
         * {@link Strategy#SYNC} (checked by {@link #build()}).
         *
         * @param kind the counter kind
         * @return this builder
         * @throws SequenceConfigurationException if {@code kind} is null
         */
        public Builder kind(CounterKind kind) {
            requireArgument(kind != null, "kind", kind, "one of table, native-sequence");
            this.kind = kind;
            return this;
        }

        /**
         * Sets how counter values become the values handed out. Default {@link KeyOrder#SEQUENTIAL};
         * {@link KeyOrder#BIT_REVERSED} needs an initial value of at least 1 (the image of 0 is 0).
         *
         * @param keyOrder the key order
         * @return this builder
         * @throws SequenceConfigurationException if {@code keyOrder} is null
         */
        public Builder keyOrder(KeyOrder keyOrder) {
            requireArgument(keyOrder != null, "key-order", keyOrder, "one of sequential, bit-reversed");
            this.keyOrder = keyOrder;
            return this;
        }

        /**
         * Sets the values a bit-reversed sequence never hands out. Default {@link KeyRange#NONE}; a range needs
         * {@link KeyOrder#BIT_REVERSED} (checked by {@link SequenceSettings#validateFor(String)} when a sequence is
         * created, since the key order may come from an annotation and the range from configuration).
         *
         * @param skipRange the range
         * @return this builder
         * @throws SequenceConfigurationException if {@code skipRange} is null
         */
        public Builder skipRange(KeyRange skipRange) {
            requireArgument(skipRange != null, "skip-range", skipRange, Setting.SKIP_RANGE.allowed());
            this.skipRange = skipRange;
            return this;
        }

        /**
         * Sets the number of values reserved per store transaction by BATCH and ASYNC_BATCH, which is also
         * the most values one stopped JVM can leave unused. Default 1000.
         *
         * @param blockSize the block size
         * @return this builder
         * @throws SequenceConfigurationException if {@code blockSize} is less than 1
         */
        public Builder blockSize(int blockSize) {
            requireArgument(blockSize >= 1, "block-size", blockSize, "an integer >= 1");
            this.blockSize = blockSize;
            return this;
        }

        /**
         * Sets how many values may remain in the block when ASYNC_BATCH starts its background refill.
         * Default: a quarter of the block size. Must be less than the block size.
         *
         * @param lowWatermark the low watermark
         * @return this builder
         * @throws SequenceConfigurationException if {@code lowWatermark} is negative
         */
        public Builder lowWatermark(int lowWatermark) {
            requireArgument(lowWatermark >= 0, "low-watermark", lowWatermark, "an integer >= 0 and < block-size");
            this.lowWatermark = lowWatermark;
            return this;
        }

        /**
         * Sets the longest a caller waits for a value (a refill, the store's retries of transient errors)
         * before it gets a {@link SequenceUnavailableException}. Default 5 seconds.
         *
         * @param acquireTimeout the acquire timeout
         * @return this builder
         * @throws SequenceConfigurationException if {@code acquireTimeout} is null, zero or negative
         */
        public Builder acquireTimeout(Duration acquireTimeout) {
            requireArgument(acquireTimeout != null && !acquireTimeout.isNegative() && !acquireTimeout.isZero(),
                    "acquire-timeout", acquireTimeout, "a positive duration");
            this.acquireTimeout = acquireTimeout;
            return this;
        }

        /**
         * Sets the value the store row starts at when the sequence does not exist yet. An existing row is
         * never changed by this setting. Default 1.
         *
         * @param initialValue the initial value
         * @return this builder
         * @throws SequenceConfigurationException if {@code initialValue} is negative
         */
        public Builder initialValue(long initialValue) {
            requireArgument(initialValue >= 0, "initial-value", initialValue, "an integer >= 0 and <= max-value");
            this.initialValue = initialValue;
            return this;
        }

        /**
         * Sets the largest value the sequence hands out; a block never crosses it and reaching it raises
         * {@link SequenceExhaustedException}, never a wrap-around. Default {@link #LARGEST_MAX_VALUE}; use
         * {@link #INT_MAX_VALUE} for {@code int} ids.
         *
         * @param maxValue the maximum value
         * @return this builder
         * @throws SequenceConfigurationException if {@code maxValue} is less than 1 or greater than
         *     {@link #LARGEST_MAX_VALUE}
         */
        public Builder maxValue(long maxValue) {
            requireArgument(maxValue >= 1 && maxValue <= LARGEST_MAX_VALUE, "max-value", maxValue,
                    "an integer from 1 to " + LARGEST_MAX_VALUE + " and >= initial-value");
            this.maxValue = maxValue;
            return this;
        }

        /**
         * Sets whether the sequence adapts its block size (between the block size and the maximum) to the target
         * refill interval and, for ASYNC_BATCH without a set low watermark, its refill point to the values taken
         * during a refill (docs/design.md, "Refill control"). Default: on for ASYNC_BATCH only.
         *
         * @param adaptive whether to adapt the block size
         * @return this builder
         */
        public Builder adaptive(boolean adaptive) {
            this.adaptive = adaptive;
            return this;
        }

        /**
         * Sets the largest block an adaptive sequence reserves, and so the largest gap a stopped JVM may leave.
         * Default 100000. When adaptive sizing is set on, it must be at least the block size; when adaptive
         * sizing is on by default, a maximum below the block size keeps the block at its size.
         *
         * @param adaptiveMaxBlockSize the largest adaptive block
         * @return this builder
         * @throws SequenceConfigurationException if {@code adaptiveMaxBlockSize} is less than 1
         */
        public Builder adaptiveMaxBlockSize(int adaptiveMaxBlockSize) {
            requireArgument(adaptiveMaxBlockSize >= 1, "adaptive.max-block-size", adaptiveMaxBlockSize,
                    "an integer >= block-size");
            this.adaptiveMaxBlockSize = adaptiveMaxBlockSize;
            return this;
        }

        /**
         * Sets the refill interval an adaptive sequence steers towards. Default 1 second.
         *
         * @param interval the target interval between refills
         * @return this builder
         * @throws SequenceConfigurationException if {@code interval} is null, zero or negative
         */
        public Builder adaptiveTargetRefillInterval(Duration interval) {
            requireArgument(interval != null && !interval.isNegative() && !interval.isZero(),
                    "adaptive.target-refill-interval", interval, "a positive duration");
            this.adaptiveTargetRefillInterval = interval;
            return this;
        }

        /**
         * Sets whether this configuration's strategy may replace a {@link Strategy#SYNC} strategy that the code
         * declares for the sequence on an annotation, giving up its gapless numbers. Default {@code false}: such a
         * configuration is refused at start-up. A configured {@code SYNC} strengthens and needs no permission.
         *
         * @param allowWeakerStrategy whether the configuration may weaken a declared SYNC strategy
         * @return this builder
         */
        public Builder allowWeakerStrategy(boolean allowWeakerStrategy) {
            this.allowWeakerStrategy = allowWeakerStrategy;
            return this;
        }

        /**
         * Checks the rules that relate settings to each other and returns the settings.
         *
         * @return the settings
         * @throws SequenceConfigurationException if a SYNC sequence is not of the table kind, the low watermark is
         *     not below the block size, the
         *     initial value is above the maximum value, or adaptive sizing is set on with a maximum below the
         *     block size
         */
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

        private static void requireArgument(boolean condition, String setting, @Nullable Object value, String allowed) {
            if (!condition) {
                throw new SequenceConfigurationException(setting, value, allowed);
            }
        }
    }
}
