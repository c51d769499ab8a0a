package dev.seqgen;

import dev.seqgen.SequenceSettings.Builder;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The settings of one sequence, each described once: its key (as every front end and error message spells it), type,
 * default, annotation attribute, and how it is read from {@link SequenceSettings} and set on its builder. A new
 * setting also needs its field, accessor and setter there, a starter property and a line in {@code docs/settings.md}.
 */
public enum Setting {

    STRATEGY("strategy", Strategy.class, "strategy", "one of sync, async, batch, async-batch", "async-batch",
            SequenceSettings::strategy, Builder::strategy),
    KIND("kind", CounterKind.class, null, "one of table, native-sequence (not for sync)",
            "the kind of the registry's store: table, unless the registry is built over a native-sequence store",
            SequenceSettings::kind, Builder::kind),
    KEY_ORDER("key-order", KeyOrder.class, "keyOrder", "one of sequential, bit-reversed", "sequential",
            SequenceSettings::keyOrder, Builder::keyOrder),
    SKIP_RANGE("skip-range", KeyRange.class, null, "none, or min..max from 1 to " + Long.MAX_VALUE
            + " holding at most 2^62 values, with key-order bit-reversed", "none", SequenceSettings::skipRange,
            Builder::skipRange),
    BLOCK_SIZE("block-size", Integer.class, null, "an integer >= 1", "1000", SequenceSettings::blockSize,
            Builder::blockSize),
    LOW_WATERMARK("low-watermark", Integer.class, null, "an integer >= 0 and < block-size",
            "a quarter of the block size", SequenceSettings::lowWatermark, Builder::lowWatermark),
    ACQUIRE_TIMEOUT("acquire-timeout", Duration.class, null, Setting.DURATION, "5s", SequenceSettings::acquireTimeout,
            Builder::acquireTimeout),
    INITIAL_VALUE("initial-value", Long.class, "initialValue", "an integer >= 0 and <= max-value", "1",
            SequenceSettings::initialValue, Builder::initialValue),
    MAX_VALUE("max-value", Long.class, "maxValue", "an integer from 1 to " + SequenceSettings.LARGEST_MAX_VALUE,
            String.valueOf(SequenceSettings.LARGEST_MAX_VALUE), SequenceSettings::maxValue, Builder::maxValue),
    ADAPTIVE_ENABLED("adaptive.enabled", Boolean.class, null, "true or false",
            "on for async-batch, off for the other strategies", SequenceSettings::adaptive, Builder::adaptive),
    ADAPTIVE_MAX_BLOCK_SIZE("adaptive.max-block-size", Integer.class, null, "an integer >= block-size", "100000",
            SequenceSettings::adaptiveMaxBlockSize, Builder::adaptiveMaxBlockSize),
    ADAPTIVE_TARGET_REFILL_INTERVAL("adaptive.target-refill-interval", Duration.class, null, Setting.DURATION, "1s",
            SequenceSettings::adaptiveTargetRefillInterval, Builder::adaptiveTargetRefillInterval),

    /** Configuration only: the code's SYNC is never weakened without a word in the configuration. */
    ALLOW_WEAKER_STRATEGY("allow-weaker-strategy", Boolean.class, null, "true or false", "false",
            SequenceSettings::allowWeakerStrategy, Builder::allowWeakerStrategy);

    private static final String DURATION =
            "a positive duration: milliseconds, a number with a unit (500ms, 5s, 1m) or ISO-8601 (PT5S)";

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    private final String key;
    private final Class<?> type;
    private final @Nullable String annotationAttribute;
    private final String allowed;
    private final String defaultText;
    private final Function<SequenceSettings, ?> reader;
    private final BiFunction<Builder, Object, Builder> writer;

    <T> Setting(String key, Class<T> type, @Nullable String annotationAttribute, String allowed, String defaultText,
            Function<SequenceSettings, T> reader, BiFunction<Builder, T, Builder> writer) {
        this.key = key;
        this.type = type;
        this.annotationAttribute = annotationAttribute;
        this.allowed = allowed;
        this.defaultText = defaultText;
        this.reader = reader;
        this.writer = (builder, value) -> writer.apply(builder, type.cast(value));
    }

    /** {@return the key, such as {@code block-size} or {@code adaptive.max-block-size}} */
    public String key() {
        return key;
    }

    /** {@return the type of the value: an enum, {@link KeyRange}, Integer, Long, Boolean or Duration} */
    public Class<?> type() {
        return type;
    }

    /** {@return the attribute of {@code @SeqgenGenerator} and {@code @SeqgenNumber} that sets it; tuning has none} */
    public Optional<String> annotationAttribute() {
        return Optional.ofNullable(annotationAttribute);
    }

    /** {@return the default as the documentation states it: a value, or the rule that derives it} */
    public String defaultText() {
        return defaultText;
    }

    /** {@return what the setting accepts, as error messages say it, such as {@code an integer >= 1}} */
    public String allowed() {
        return allowed;
    }

    /** {@return the value in {@link SequenceSettings#defaults()}} */
    public Object defaultValue() {
        return valueIn(SequenceSettings.defaults());
    }

    /** {@return the setting's value in {@code settings}, of {@link #type()}} */
    public Object valueIn(SequenceSettings settings) {
        return reader.apply(settings);
    }

    /**
     * {@return the builder} Sets the setting on it from a value of {@link #type()} or text as in a properties file
     * (enums in any case with hyphens, durations as {@link #duration(String)} reads them); a
     * {@link SequenceConfigurationException} names the key if the value cannot be read or breaks its rule.
     */
    public Builder apply(Builder builder, Object value) {
        return writer.apply(builder, convert(value));
    }

    /** {@return the setting with the given key, if any} */
    public static Optional<Setting> find(String key) {
        return Arrays.stream(values()).filter(setting -> setting.key.equals(key)).findFirst();
    }

    /** {@return every key, comma-separated, for messages} */
    public static String keys() {
        return Arrays.stream(values()).map(Setting::key).collect(Collectors.joining(", "));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object convert(Object value) {
        if (value == null) {
            throw invalid(null);
        }
        if (type.isInstance(value)) {
            return value;
        }
        String text = value.toString().trim();
        try {
            if (type.isEnum()) {
                return Enum.valueOf((Class) type, text.toUpperCase(Locale.ROOT).replace('-', '_'));
            }
            if (type == Integer.class || type == Long.class) {
                long number = value instanceof Number n && !(value instanceof Double || value instanceof Float)
                        ? n.longValue() : Long.parseLong(text);
                return type == Long.class ? (Object) number : (Object) Math.toIntExact(number);
            }
            if (type == KeyRange.class) {
                return KeyRange.valueOf(text);
            }
            if (type == Boolean.class && !text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                throw invalid(value);
            }
            return type == Boolean.class ? Boolean.valueOf(text) : duration(text);
        } catch (IllegalArgumentException | ArithmeticException | DateTimeParseException e) {
            SequenceConfigurationException invalid = invalid(value);
            invalid.initCause(e);
            throw invalid;
        }
    }

    /**
     * Reads a duration: ISO-8601 ({@code PT10M}), or an amount with a unit of {@code ms}, {@code s}, {@code m},
     * {@code h} or {@code d} ({@code 10m}; no unit: milliseconds); else an {@link IllegalArgumentException}.
     */
    public static Duration duration(String text) {
        if (text.startsWith("P") || text.startsWith("p") || text.startsWith("-P")) {
            return Duration.parse(text);
        }
        Matcher simple = SIMPLE_DURATION.matcher(text.toLowerCase(Locale.ROOT));
        if (!simple.matches()) {
            throw new IllegalArgumentException("not a duration: " + text);
        }
        long amount = Long.parseLong(simple.group(1));
        return switch (String.valueOf(simple.group(2))) {
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            case "d" -> Duration.ofDays(amount);
            default -> Duration.ofMillis(amount); // ms, or no unit
        };
    }

    private SequenceConfigurationException invalid(@Nullable Object value) {
        return new SequenceConfigurationException(key, value, allowed);
    }
}
