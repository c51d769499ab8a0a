package dev.seqgen;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The settings of one sequence, each described once: its key (as every front end spells it: Spring Boot's
 * {@code seqgen.defaults.<key>} and {@code seqgen.sequences.<name>.<key>}, plain Hibernate's {@code seqgen.*}
 * settings, error messages), its type, its default, the attribute of {@code @SeqgenGenerator} and
 * {@code @SeqgenNumber} that sets it, and how it is set on a {@link SequenceSettings.Builder}, whose setter
 * checks its rule.
 *
 * <p>Front ends go through this list rather than naming settings themselves, with switches over it that the
 * compiler checks for completeness, so a setting added here cannot be forgotten by one of them.
 */
public enum Setting {

    /** {@link SequenceSettings#strategy()}. */
    STRATEGY("strategy", Strategy.class, "strategy", "one of sync, async, batch, async-batch"),

    /** {@link SequenceSettings#blockSize()}. */
    BLOCK_SIZE("block-size", Integer.class, "blockSize", "an integer >= 1"),

    /** {@link SequenceSettings#lowWatermark()}; its default is a quarter of the block size. */
    LOW_WATERMARK("low-watermark", Integer.class, "lowWatermark", "an integer >= 0 and < block-size"),

    /** {@link SequenceSettings#acquireTimeout()}. */
    ACQUIRE_TIMEOUT("acquire-timeout", Duration.class, "acquireTimeoutMillis", Setting.DURATION),

    /** {@link SequenceSettings#initialValue()}. */
    INITIAL_VALUE("initial-value", Long.class, "initialValue", "an integer >= 0 and <= max-value"),

    /** {@link SequenceSettings#maxValue()}. */
    MAX_VALUE("max-value", Long.class, "maxValue", "an integer from 1 to " + SequenceSettings.LARGEST_MAX_VALUE),

    /** {@link SequenceSettings#adaptive()}; its default depends on the strategy (on for ASYNC_BATCH). */
    ADAPTIVE_ENABLED("adaptive.enabled", Boolean.class, "adaptive", "true or false"),

    /** {@link SequenceSettings#adaptiveMaxBlockSize()}. */
    ADAPTIVE_MAX_BLOCK_SIZE("adaptive.max-block-size", Integer.class, "adaptiveMaxBlockSize",
            "an integer >= block-size"),

    /** {@link SequenceSettings#adaptiveTargetRefillInterval()}. */
    ADAPTIVE_TARGET_REFILL_INTERVAL("adaptive.target-refill-interval", Duration.class,
            "adaptiveTargetRefillIntervalMillis", Setting.DURATION);

    private static final String DURATION =
            "a positive duration: milliseconds, a number with a unit (500ms, 5s, 1m) or ISO-8601 (PT5S)";

    private static final Pattern SIMPLE_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)?");

    private final String key;
    private final Class<?> type;
    private final String annotationAttribute;
    private final String allowed;

    Setting(String key, Class<?> type, String annotationAttribute, String allowed) {
        this.key = key;
        this.type = type;
        this.annotationAttribute = annotationAttribute;
        this.allowed = allowed;
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
     * Returns the type of the setting's value: {@link Strategy}, {@link Integer}, {@link Long}, {@link Boolean}
     * or {@link Duration}.
     *
     * @return the value type
     */
    public Class<?> type() {
        return type;
    }

    /**
     * Returns the name of the attribute of {@code @SeqgenGenerator} and {@code @SeqgenNumber} that sets it
     * (durations in milliseconds).
     *
     * @return the annotation attribute's name
     */
    public String annotationAttribute() {
        return annotationAttribute;
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
        return switch (this) {
            case STRATEGY -> settings.strategy();
            case BLOCK_SIZE -> settings.blockSize();
            case LOW_WATERMARK -> settings.lowWatermark();
            case ACQUIRE_TIMEOUT -> settings.acquireTimeout();
            case INITIAL_VALUE -> settings.initialValue();
            case MAX_VALUE -> settings.maxValue();
            case ADAPTIVE_ENABLED -> settings.adaptive();
            case ADAPTIVE_MAX_BLOCK_SIZE -> settings.adaptiveMaxBlockSize();
            case ADAPTIVE_TARGET_REFILL_INTERVAL -> settings.adaptiveTargetRefillInterval();
        };
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
        Object typed = convert(value);
        return switch (this) {
            case STRATEGY -> builder.strategy((Strategy) typed);
            case BLOCK_SIZE -> builder.blockSize((Integer) typed);
            case LOW_WATERMARK -> builder.lowWatermark((Integer) typed);
            case ACQUIRE_TIMEOUT -> builder.acquireTimeout((Duration) typed);
            case INITIAL_VALUE -> builder.initialValue((Long) typed);
            case MAX_VALUE -> builder.maxValue((Long) typed);
            case ADAPTIVE_ENABLED -> builder.adaptive((Boolean) typed);
            case ADAPTIVE_MAX_BLOCK_SIZE -> builder.adaptiveMaxBlockSize((Integer) typed);
            case ADAPTIVE_TARGET_REFILL_INTERVAL -> builder.adaptiveTargetRefillInterval((Duration) typed);
        };
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
            if (type == Strategy.class) {
                return Strategy.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
            }
            if (type == Integer.class) {
                return value instanceof Number n && !(value instanceof Double || value instanceof Float)
                        ? Math.toIntExact(n.longValue()) : Integer.parseInt(text);
            }
            if (type == Long.class) {
                return value instanceof Number n && !(value instanceof Double || value instanceof Float)
                        ? n.longValue() : Long.parseLong(text);
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

    private static Duration duration(String text) {
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

    private SequenceConfigurationException invalid(Object value) {
        return new SequenceConfigurationException(key, value, allowed);
    }
}
