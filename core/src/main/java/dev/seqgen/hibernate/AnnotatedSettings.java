package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import java.lang.annotation.Annotation;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/** A {@link SeqgenGenerator}'s or {@link SeqgenNumber}'s sequence name and settings; attributes read by name. */
final class AnnotatedSettings {

    private AnnotatedSettings() {
    }

    /** The annotation's sequence name, else {@code @GeneratedValue}'s generator, else the entity's in snake_case. */
    static String sequenceName(SeqgenGenerator annotation, @Nullable String generatedValueName, String jpaEntityName) {
        return !annotation.sequence().isBlank() ? annotation.sequence().trim()
                : generatedValueName != null && !generatedValueName.isBlank() ? generatedValueName.trim()
                : snakeCase(jpaEntityName);
    }

    /** {@code HTTPRequestLog} to {@code http_request_log}; characters a sequence name cannot hold become {@code _}. */
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
            } else {
                out.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || "_.-".indexOf(c) >= 0 ? c : '_');
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }

    /** The annotation merged into the settings: a value configured for the name wins, then the attribute's. */
    static SequenceSettings resolve(Annotation annotation, SequenceSettings configured,
            SequenceSettings defaults, Map<Setting, String> sources, long maxForIdType) {
        SequenceSettings.Builder builder = configured.toBuilder();
        for (Setting setting : Setting.values()) {
            Object value = attribute(annotation, setting);
            if (value != null && open(setting, configured, defaults, sources)) {
                setting.apply(builder, value);
            }
        }
        SequenceSettings merged = builder.build();
        return merged.maxValue() > maxForIdType ? merged.toBuilder().maxValue(maxForIdType).build() : merged;
    }

    /** For a log line, the annotation's attributes the configuration overrides, each by its source; or empty. */
    static String overridden(Annotation annotation, SequenceSettings configured, SequenceSettings defaults,
            Map<Setting, String> sources) {
        StringJoiner overridden = new StringJoiner("; ");
        for (Setting setting : Setting.values()) {
            Object value = attribute(annotation, setting);
            if (value != null && !open(setting, configured, defaults, sources)
                    && !value.equals(setting.valueIn(configured))) {
                String source = sources.get(setting);
                overridden.add((source != null ? source + "=" + setting.valueIn(configured)
                        : "the registry's " + setting.key() + "=" + setting.valueIn(configured) + " for the sequence")
                        + " overrides the annotation's " + setting.annotationAttribute().orElseThrow() + "=" + value);
            }
        }
        return overridden.toString();
    }

    /** The annotation's value for a setting; null if it has no such attribute or leaves it UNSET (or empty). */
    static @Nullable Object attribute(Annotation annotation, Setting setting) {
        String name = setting.annotationAttribute().orElse(null);
        Object value;
        try {
            value = name == null ? null : annotation.annotationType().getMethod(name).invoke(annotation);
        } catch (NoSuchMethodException e) {
            return null; // a setting this annotation does not offer (key-order on @SeqgenNumber)
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("@" + annotation.annotationType().getSimpleName() + " has no attribute '"
                    + name + "' for the setting " + setting.key(), e);
        }
        if (value instanceof Object[] values) {
            if (values.length > 1) {
                throw new SequenceConfigurationException(name, Arrays.toString(values), "at most one "
                        + (setting == Setting.STRATEGY ? "strategy" : "value"));
            }
            return values.length == 0 ? null : values[0];
        }
        return value instanceof Number number && number.longValue() == SeqgenGenerator.UNSET ? null : value;
    }

    /** Whether the registry leaves a setting to the annotation: unset for the name (without sources: at default). */
    private static boolean open(Setting setting, SequenceSettings configured, SequenceSettings defaults,
            Map<Setting, String> sources) {
        return sources.isEmpty() ? setting.valueIn(configured).equals(setting.valueIn(defaults))
                : !sources.containsKey(setting);
    }
}
