package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;

/**
 * The rules that turn a {@link SeqgenGenerator} and the registry's configuration into the name and settings
 * of a sequence; documented on {@link SeqgenGenerator}.
 */
final class AnnotatedSettings {

    private AnnotatedSettings() {
    }

    /**
     * Returns the sequence name: the annotation's, else the generator name of {@code @GeneratedValue}, else
     * the entity name in snake_case.
     */
    static String sequenceName(SeqgenGenerator annotation, String generatedValueName, String jpaEntityName) {
        if (!annotation.sequence().isBlank()) {
            return annotation.sequence().trim();
        }
        if (generatedValueName != null && !generatedValueName.isBlank()) {
            return generatedValueName.trim();
        }
        return snakeCase(jpaEntityName);
    }

    /**
     * {@code PurchaseOrder} to {@code purchase_order}, {@code HTTPRequestLog} to {@code http_request_log};
     * characters a sequence name cannot hold become underscores.
     */
    static String snakeCase(String name) {
        StringBuilder out = new StringBuilder(name.length() + 8);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c)) {
                char previous = i > 0 ? name.charAt(i - 1) : '_';
                boolean wordStart = Character.isLowerCase(previous) || Character.isDigit(previous);
                boolean acronymEnd = Character.isUpperCase(previous) && i + 1 < name.length()
                        && Character.isLowerCase(name.charAt(i + 1));
                if (wordStart || acronymEnd) {
                    out.append('_');
                }
                out.append(Character.toLowerCase(c));
            } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-') {
                out.append(c);
            } else {
                out.append('_');
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }

    /**
     * Merges the annotation into the registry's settings for the name: a value the registry configures for
     * this name (one that differs from the registry's default) wins; otherwise a set attribute; otherwise the
     * registry's value. The maximum value is capped at {@code maxForIdType}.
     *
     * @param annotation the annotation
     * @param configured the registry's settings for the name ({@code settingsFor(name)})
     * @param defaults the registry's defaults
     * @param maxForIdType the largest value the id type holds
     * @return the settings
     * @throws SequenceConfigurationException if a value breaks a rule, named by its setting
     */
    static SequenceSettings resolve(SeqgenGenerator annotation, SequenceSettings configured,
            SequenceSettings defaults, long maxForIdType) {
        SequenceSettings.Builder builder = configured.toBuilder();
        Fill fill = new Fill(configured, defaults);
        for (Setting setting : Setting.values()) {
            Object value = attribute(annotation, setting);
            if (value != null && fill.open(setting::valueIn)) {
                setting.apply(builder, value);
            }
        }
        if (annotation.blockSize() != SeqgenGenerator.UNSET && annotation.lowWatermark() == SeqgenGenerator.UNSET
                && fill.open(SequenceSettings::blockSize) && fill.open(SequenceSettings::lowWatermark)) {
            // The low watermark the registry would use was a quarter of its own block: back to the default, a
            // quarter of the annotation's block (and for an adaptive ASYNC_BATCH, the floor of its refill point
            // rather than a fixed one).
            builder.defaultLowWatermark();
        }

        SequenceSettings merged = builder.build();
        if (merged.maxValue() > maxForIdType) {
            merged = merged.toBuilder().maxValue(maxForIdType).build();
        }
        return merged;
    }

    /**
     * The annotation's value for a setting, of the setting's type, or null when the attribute is unset. The
     * switch names every setting, so a setting added to {@link Setting} does not compile here until the
     * annotations have its attribute.
     */
    static Object attribute(SeqgenGenerator annotation, Setting setting) {
        return switch (setting) {
            case STRATEGY -> single("strategy", annotation.strategy().length == 0 ? null
                    : annotation.strategy().length == 1 ? annotation.strategy()[0] : Arrays.toString(annotation.strategy()),
                    annotation.strategy().length);
            case BLOCK_SIZE -> unset(annotation.blockSize()) ? null : annotation.blockSize();
            case LOW_WATERMARK -> unset(annotation.lowWatermark()) ? null : annotation.lowWatermark();
            case ACQUIRE_TIMEOUT -> unset(annotation.acquireTimeoutMillis()) ? null
                    : Duration.ofMillis(annotation.acquireTimeoutMillis());
            case INITIAL_VALUE -> unset(annotation.initialValue()) ? null : annotation.initialValue();
            case MAX_VALUE -> unset(annotation.maxValue()) ? null : annotation.maxValue();
            case ADAPTIVE_ENABLED -> single("adaptive", annotation.adaptive().length == 0 ? null
                    : annotation.adaptive().length == 1 ? annotation.adaptive()[0] : Arrays.toString(annotation.adaptive()),
                    annotation.adaptive().length);
            case ADAPTIVE_MAX_BLOCK_SIZE -> unset(annotation.adaptiveMaxBlockSize()) ? null
                    : annotation.adaptiveMaxBlockSize();
            case ADAPTIVE_TARGET_REFILL_INTERVAL -> unset(annotation.adaptiveTargetRefillIntervalMillis()) ? null
                    : Duration.ofMillis(annotation.adaptiveTargetRefillIntervalMillis());
        };
    }

    /** An array attribute holds at most one value: {@code strategy = Strategy.SYNC}. */
    private static Object single(String attribute, Object value, int length) {
        if (length > 1) {
            throw new SequenceConfigurationException(attribute, value, "at most one " + (attribute.equals("strategy")
                    ? "strategy" : "value"));
        }
        return value;
    }

    private static boolean unset(long value) {
        return value == SeqgenGenerator.UNSET;
    }

    /** Tells which settings the registry leaves open for the annotation to fill. */
    private static final class Fill {

        private final SequenceSettings configured;
        private final SequenceSettings defaults;

        Fill(SequenceSettings configured, SequenceSettings defaults) {
            this.configured = configured;
            this.defaults = defaults;
        }

        /** Whether the registry configures nothing of its own for this setting of the name. */
        boolean open(Function<SequenceSettings, Object> setting) {
            return setting.apply(configured).equals(setting.apply(defaults));
        }
    }
}
