package dev.seqgen;

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
 * The settings of one sequence, each described once: its key (as every front end spells it: Spring Boot's
 * {@code seqgen.defaults.<key>} and {@code seqgen.sequences.<name>.<key>}, plain Hibernate's {@code seqgen.*}
 * settings, error messages), its type, its default, the attribute of {@code @SeqgenGenerator} and
 * {@code @SeqgenNumber} that sets it (if any), and how it is read from {@link SequenceSettings} and set on its
 * {@link SequenceSettings.Builder}, whose setter checks its rule.
 *
 * <p>A setting is declared in four places: its entry here, its value in {@link SequenceSettings} (field, accessor
 * and builder setter), its property in the Spring Boot starter's properties type, and its row in
 * {@code docs/settings.md}. Everything else is derived from this list (the plain Hibernate keys, the
 * annotations' attributes, the actuator endpoint, {@link SequenceSettings}' {@code equals}, {@code hashCode} and
 * {@code toString}) or checked against it by a test (the properties' descriptions and defaults, the
 * documentation, the annotations' attributes).
 */
public enum Setting {

    /** {@link SequenceSettings#strategy()}. */
    STRATEGY("strategy", Strategy.class, "strategy", "one of sync, async, batch, async-batch", "async-batch",
            SequenceSettings::strategy, (builder, value) -> builder.strategy((Strategy) value)),

    /** {@link SequenceSettings#kind()}: where the values are counted; SYNC needs {@link CounterKind#TABLE}. */
    KIND("kind", CounterKind.class, null, "one of table, native-sequence (not for sync)",
            "the kind of the registry's store: table, unless the registry is built over a native-sequence store",
            SequenceSettings::kind, (builder, value) -> builder.kind((CounterKind) value)),

    /** {@link SequenceSettings#keyOrder()}: the counter values as they are, or bit-reversed. */
    KEY_ORDER("key-order", KeyOrder.class, "keyOrder", "one of sequential, bit-reversed", "sequential",
            SequenceSettings::keyOrder, (builder, value) -> builder.keyOrder((KeyOrder) value)),

    /** {@link SequenceSettings#skipRange()}: values a bit-reversed sequence never hands out. */
    SKIP_RANGE("skip-range", KeyRange.class, null,
            "none, or min..max from 1 to " + Long.MAX_VALUE + " holding at most 2^62 values, with key-order"
            + " bit-reversed", "none", SequenceSettings::skipRange,
            (builder, value) -> builder.skipRange((KeyRange) value)),

    /** {@link SequenceSettings#blockSize()}. */
    BLOCK_SIZE("block-size", Integer.class, null, "an integer >= 1", "1000",
            SequenceSettings::blockSize, (builder, value) -> builder.blockSize((Integer) value)),

    /** {@link SequenceSettings#lowWatermark()}; its default is a quarter of the block size. */
    LOW_WATERMARK("low-watermark", Integer.class, null, "an integer >= 0 and < block-size",
            "a quarter of the block size", SequenceSettings::lowWatermark,
            (builder, value) -> builder.lowWatermark((Integer) value)),

    /** {@link SequenceSettings#acquireTimeout()}. */
    ACQUIRE_TIMEOUT("acquire-timeout", Duration.class, null, Setting.DURATION, "5s",
            SequenceSettings::acquireTimeout, (builder, value) -> builder.acquireTimeout((Duration) value)),

    /** {@link SequenceSettings#initialValue()}. */
    INITIAL_VALUE("initial-value", Long.class, "initialValue", "an integer >= 0 and <= max-value", "1",
            SequenceSettings::initialValue, (builder, value) -> builder.initialValue((Long) value)),

    /** {@link SequenceSettings#maxValue()}. */
    MAX_VALUE("max-value", Long.class, "maxValue", "an integer from 1 to " + SequenceSettings.LARGEST_MAX_VALUE,
            String.valueOf(SequenceSettings.LARGEST_MAX_VALUE), SequenceSettings::maxValue,
            (builder, value) -> builder.maxValue((Long) value)),

    /** {@link SequenceSettings#adaptive()}; its default depends on the strategy (on for ASYNC_BATCH). */
    ADAPTIVE_ENABLED("adaptive.enabled", Boolean.class, null, "true or false",
            "on for async-batch, off for the other strategies", SequenceSettings::adaptive,
            (builder, value) -> builder.adaptive((Boolean) value)),

    /** {@link SequenceSettings#adaptiveMaxBlockSize()}. */
    ADAPTIVE_MAX_BLOCK_SIZE("adaptive.max-block-size", Integer.class, null,
            "an integer >= block-size", "100000", SequenceSettings::adaptiveMaxBlockSize,
            (builder, value) -> builder.adaptiveMaxBlockSize((Integer) value)),

    /** {@link SequenceSettings#adaptiveTargetRefillInterval()}. */
    ADAPTIVE_TARGET_REFILL_INTERVAL("adaptive.target-refill-interval", Duration.class,
            null, Setting.DURATION, "1s",
            SequenceSettings::adaptiveTargetRefillInterval,
            (builder, value) -> builder.adaptiveTargetRefillInterval((Duration) value)),

    /**
     * {@link SequenceSettings#allowWeakerStrategy()}: configuration only, so that the code's SYNC is never
     * weakened without a word in the configuration that weakens it.
     */
    ALLOW_WEAKER_STRATEGY("allow-weaker-strategy", Boolean.class, null, "true or false", "false",
            SequenceSettings::allowWeakerStrategy, (builder, value) -> builder.allowWeakerStrategy((Boolean) value));

    private static final String DURATION =
            "a positive duration: milliseconds, a number with a unit (500ms, 5s, 1m) or ISO-8601 (PT5S)";

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    private final String key;
    private final Class<?> type;
    private final @Nullable String annotationAttribute;
    private final String allowed;
    private final String defaultText;
    private final Function<SequenceSettings, Object> reader;
    private final BiFunction<SequenceSettings.Builder, Object, SequenceSettings.Builder> writer;

    Setting(String key, Class<?> type, @Nullable String annotationAttribute, String allowed, String defaultText,
            Function<SequenceSettings, Object> reader,
            BiFunction<SequenceSettings.Builder, Object, SequenceSettings.Builder> writer) {
        this.key = key;
        this.type = type;
        this.annotationAttribute = annotationAttribute;
        this.allowed = allowed;
        this.defaultText = defaultText;
        this.reader = reader;
        this.writer = writer;
    }

    /**
     * Returns the key, such as {@code block-size} or {@code adaptive.max-block-size}.
     *
     * @return the key
     */
    public String key() {
        return key;
    }

    /**
     * Returns the type of the setting's value: an enum ({@link Strategy}, {@link CounterKind}, {@link KeyOrder}),
     * {@link KeyRange}, {@link Integer}, {@link Long}, {@link Boolean} or {@link Duration}.
     *
     * @return the value type
     */
    public Class<?> type() {
        return type;
    }

    /**
     * Returns the name of the attribute of {@code @SeqgenGenerator} and {@code @SeqgenNumber} that sets it, or
     * empty if the annotations do not set it: they declare what the code depends on (the strategy, the key order,
     * the initial and maximum values); tuning is configuration only.
     *
     * @return the annotation attribute's name, if the annotations have one
     */
    public Optional<String> annotationAttribute() {
        return Optional.ofNullable(annotationAttribute);
    }

    /**
     * Returns the default as the documentation and the Spring Boot property descriptions state it: a value
     * ({@code 1000}, {@code 5s}, {@code async-batch}) or, where the default depends on other settings, the rule
     * ({@code a quarter of the block size}).
     *
     * @return the default, as text
     */
    public String defaultText() {
        return defaultText;
    }

    /**
     * Returns what the setting accepts, as error messages say it.
     *
     * @return the rule, such as {@code an integer >= 1}
     */
    public String allowed() {
        return allowed;
    }

    /**
     * Returns the value the setting has in {@link SequenceSettings#defaults()}: for {@link #LOW_WATERMARK} a
     * quarter of the default block size, for {@link #ADAPTIVE_ENABLED} the default of the default strategy.
     *
     * @return the default value
     */
    public Object defaultValue() {
        return valueIn(SequenceSettings.defaults());
    }

    /**
     * Returns the setting's value in {@code settings}.
     *
     * @param settings the settings to read
     * @return the value, of {@link #type()}
     */
    public Object valueIn(SequenceSettings settings) {
        return reader.apply(settings);
    }

    /**
     * Sets the setting on {@code builder}. The value may be of {@link #type()} or text, as in a properties file:
     * strategies in any case with hyphens or underscores ({@code async-batch}), durations as milliseconds, as a
     * number with a unit ({@code 500ms}, {@code 5s}) or in ISO-8601 ({@code PT5S}).
     *
     * @param builder the builder to set it on
     * @param value the value
     * @return the builder
     * @throws SequenceConfigurationException naming this setting's key if the value cannot be read as its type
     *     or breaks its rule
     */
    public SequenceSettings.Builder apply(SequenceSettings.Builder builder, Object value) {
        return writer.apply(builder, convert(value));
    }

    /**
     * Returns the setting with the given key.
     *
     * @param key a key such as {@code block-size}
     * @return the setting, or empty if no setting has that key
     */
    public static Optional<Setting> find(String key) {
        return Arrays.stream(values()).filter(setting -> setting.key.equals(key)).findFirst();
    }

    /**
     * Returns every key, comma-separated, for messages.
     *
     * @return {@code strategy, block-size, ...}
     */
    public static String keys() {
        return Arrays.stream(values()).map(Setting::key).collect(Collectors.joining(", "));
    }

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
                return enumConstant(type, text.toUpperCase(Locale.ROOT).replace('-', '_'));
            }
            if (type == Integer.class) {
                return value instanceof Number n && !(value instanceof Double || value instanceof Float)
                        ? Math.toIntExact(n.longValue()) : Integer.parseInt(text);
            }
            if (type == Long.class) {
                return value instanceof Number n && !(value instanceof Double || value instanceof Float)
                        ? n.longValue() : Long.parseLong(text);
            }
            if (type == KeyRange.class) {
                return KeyRange.valueOf(text);
            }
            if (type == Boolean.class) {
                if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(text);
                }
                throw invalid(value);
            }
            return duration(text);
        } catch (IllegalArgumentException | ArithmeticException | DateTimeParseException e) {
            SequenceConfigurationException invalid = invalid(value);
            invalid.initCause(e);
            throw invalid;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> type, String name) {
        return Enum.valueOf((Class) type, name);
    }

    /**
     * Reads a duration as the settings' text values are read: ISO-8601 ({@code PT10M}), or an amount with a unit of
     * {@code ms}, {@code s}, {@code m}, {@code h} or {@code d} ({@code 10m}; no unit: milliseconds). For the
     * integrations' own settings of durations ({@code seqgen.series.idle-timeout} of plain Hibernate).
     *
     * @param text the text
     * @return the duration
     * @throws IllegalArgumentException if the text is not a duration
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
        String unit = simple.group(2) == null ? "ms" : simple.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }

    private SequenceConfigurationException invalid(@Nullable Object value) {
        return new SequenceConfigurationException(key, value, allowed);
    }
}
