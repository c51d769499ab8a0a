package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;

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

        if (annotation.strategy().length > 1) {
            throw new SequenceConfigurationException("strategy", Arrays.toString(annotation.strategy()),
                    "at most one strategy");
        }
        if (annotation.strategy().length == 1 && fill.open(SequenceSettings::strategy)) {
            builder.strategy(annotation.strategy()[0]);
        }
        boolean blockFromAnnotation = isSet(annotation.blockSize()) && fill.open(SequenceSettings::blockSize);
        if (blockFromAnnotation) {
            builder.blockSize(annotation.blockSize());
        }
        if (fill.open(SequenceSettings::lowWatermark)) {
            if (isSet(annotation.lowWatermark())) {
                builder.lowWatermark(annotation.lowWatermark());
            } else if (blockFromAnnotation) {
                // The low watermark the registry would use was a quarter of its own block: back to the default,
                // a quarter of the annotation's block (and for an adaptive ASYNC_BATCH, the floor of its refill
                // point rather than a fixed one).
                builder.defaultLowWatermark();
            }
        }
        if (isSet(annotation.acquireTimeoutMillis()) && fill.open(SequenceSettings::acquireTimeout)) {
            builder.acquireTimeout(Duration.ofMillis(annotation.acquireTimeoutMillis()));
        }
        if (isSet(annotation.initialValue()) && fill.open(SequenceSettings::initialValue)) {
            builder.initialValue(annotation.initialValue());
        }
        if (isSet(annotation.maxValue()) && fill.open(SequenceSettings::maxValue)) {
            builder.maxValue(annotation.maxValue());
        }
        if (annotation.adaptive().length > 1) {
            throw new SequenceConfigurationException("adaptive", Arrays.toString(annotation.adaptive()),
                    "at most one value");
        }
        if (annotation.adaptive().length == 1 && fill.open(SequenceSettings::adaptive)) {
            builder.adaptive(annotation.adaptive()[0]);
        }
        if (isSet(annotation.adaptiveMaxBlockSize()) && fill.open(SequenceSettings::adaptiveMaxBlockSize)) {
            builder.adaptiveMaxBlockSize(annotation.adaptiveMaxBlockSize());
        }

        SequenceSettings merged = builder.build();
        if (merged.maxValue() > maxForIdType) {
            merged = merged.toBuilder().maxValue(maxForIdType).build();
        }
        return merged;
    }

    private static boolean isSet(long value) {
        return value != SeqgenGenerator.UNSET;
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
