package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.Strategy;

import java.lang.annotation.Annotation;
import java.lang.reflect.Array;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * The rules that turn a {@link SeqgenGenerator} or a {@link SeqgenNumber} and the registry's configuration into
 * the name and settings of a sequence; documented on {@link SeqgenGenerator}. The two annotations' setting
 * attributes are read by name, {@link Setting#annotationAttribute()}, so a setting added to {@link Setting} needs
 * no code here; {@code AnnotatedSettingsTest} checks that both annotations have exactly those attributes.
 */
final class AnnotatedSettings {

    private AnnotatedSettings() {
    }

    /**
     * Returns the sequence name: the annotation's, else the generator name of {@code @GeneratedValue}, else
     * the entity name in snake_case.
     */
    static String sequenceName(SeqgenGenerator annotation, @Nullable String generatedValueName, String jpaEntityName) {
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
     * Merges the annotation into the registry's settings for the name: a value set for this name wins, whatever it
     * is; otherwise a set attribute; otherwise the registry's value (its defaults, configured or built in). The
     * maximum value is capped at {@code maxForIdType}.
     *
     * @param annotation a {@link SeqgenGenerator} or {@link SeqgenNumber}
     * @param configured the registry's settings for the name ({@code settingsFor(name)})
     * @param defaults the registry's defaults
     * @param sources where the values set for the name came from ({@code SequenceRegistry.sourcesFor(name)})
     * @param maxForIdType the largest value the id type holds
     * @return the settings
     * @throws SequenceConfigurationException if a value breaks a rule, named by its setting
     */
    static SequenceSettings resolve(Annotation annotation, SequenceSettings configured,
            SequenceSettings defaults, Map<Setting, String> sources, long maxForIdType) {
        SequenceSettings.Builder builder = configured.toBuilder();
        Fill fill = new Fill(configured, defaults, sources);
        for (Setting setting : Setting.values()) {
            Object value = attribute(annotation, setting);
            if (value != null && fill.open(setting)) {
                setting.apply(builder, value);
            }
        }

        SequenceSettings merged = builder.build();
        if (merged.maxValue() > maxForIdType) {
            merged = merged.toBuilder().maxValue(maxForIdType).build();
        }
        return merged;
    }

    /**
     * Returns the strategy the configuration puts in place of the annotation's {@link Strategy#SYNC} without
     * {@link SequenceSettings#allowWeakerStrategy()}: a guarantee the code declares (gapless numbers) that
     * configuration would weaken silently. Null when the annotation does not declare SYNC, the merged settings keep
     * it, or the configuration says the override is meant.
     *
     * @param annotation a {@link SeqgenGenerator} or {@link SeqgenNumber}
     * @param merged the settings {@link #resolve} merged
     * @return the weaker configured strategy, or null
     */
    static @Nullable Strategy weakenedSync(Annotation annotation, SequenceSettings merged) {
        return attribute(annotation, Setting.STRATEGY) == Strategy.SYNC && merged.strategy() != Strategy.SYNC
                && !merged.allowWeakerStrategy() ? merged.strategy() : null;
    }

    /**
     * Describes the annotation's attributes that the registry's settings for the name override (a value set for the
     * name wins over the attribute), for a log line, each by its source where the registry knows it: empty when the
     * annotation's attributes all apply.
     *
     * @param sources where the values set for the name came from ({@code SequenceRegistry.sourcesFor(name)})
     * @return for example {@code seqgen.sequences.invoices.strategy=BATCH overrides the annotation's strategy=SYNC},
     *     or empty
     */
    static String overridden(Annotation annotation, SequenceSettings configured, SequenceSettings defaults,
            Map<Setting, String> sources) {
        Fill fill = new Fill(configured, defaults, sources);
        StringJoiner overridden = new StringJoiner("; ");
        for (Setting setting : Setting.values()) {
            Object value = attribute(annotation, setting);
            if (value != null && !fill.open(setting) && !value.equals(setting.valueIn(configured))) {
                String source = sources.get(setting);
                overridden.add((source != null ? source + "=" + setting.valueIn(configured)
                        : "the registry's " + setting.key() + "=" + setting.valueIn(configured) + " for the sequence")
                        + " overrides the annotation's " + setting.annotationAttribute().orElseThrow() + "=" + value);
            }
        }
        return overridden.toString();
    }

    /**
     * The annotation's value for a setting, or null when the annotation has no attribute for it or leaves it
     * unset: {@link SeqgenGenerator#UNSET} for numbers, an empty array for the strategy and the key order (arrays
     * so that "unset" can be told from a value).
     */
    static @Nullable Object attribute(Annotation annotation, Setting setting) {
        String name = setting.annotationAttribute().orElse(null);
        if (name == null) {
            return null;
        }
        Object value;
        try {
            value = annotation.annotationType().getMethod(name).invoke(annotation);
        } catch (NoSuchMethodException e) {
            return null; // a setting this annotation does not offer (key-order on @SeqgenNumber)
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("@" + annotation.annotationType().getSimpleName() + " has no attribute '"
                    + name + "' for the setting " + setting.key(), e);
        }
        if (value.getClass().isArray()) {
            int length = Array.getLength(value);
            if (length > 1) {
                throw new SequenceConfigurationException(name, arrayText(value), "at most one "
                        + (setting == Setting.STRATEGY ? "strategy" : "value"));
            }
            return length == 0 ? null : Array.get(value, 0);
        }
        return value instanceof Number number && number.longValue() == SeqgenGenerator.UNSET ? null : value;
    }

    private static String arrayText(Object array) {
        StringJoiner text = new StringJoiner(", ", "[", "]");
        for (int i = 0; i < Array.getLength(array); i++) {
            text.add(String.valueOf(Array.get(array, i)));
        }
        return text.toString();
    }

    /**
     * Tells which settings the registry leaves open for the annotation to fill: those not set for the name, as its
     * sources say; when the registry was not told them ({@code SequenceRegistry.Builder.sequence(name, settings)}),
     * those whose value is the default's.
     */
    private record Fill(SequenceSettings configured, SequenceSettings defaults, Map<Setting, String> sources) {

        boolean open(Setting setting) {
            return sources.isEmpty() ? setting.valueIn(configured).equals(setting.valueIn(defaults))
                    : !sources.containsKey(setting);
        }
    }
}
