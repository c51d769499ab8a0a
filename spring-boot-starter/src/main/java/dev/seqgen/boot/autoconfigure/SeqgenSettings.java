package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.SequenceProperties;

import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.PropertyAccessorFactory;

/**
 * Turns the {@code seqgen.*} properties into {@link SequenceSettings}, and every
 * {@link SequenceConfigurationException} seqgen raises on the way into one that names the full property
 * ({@code seqgen.sequences.orders.block-size}), so the failure analysis points at the line to fix.
 */
final class SeqgenSettings {

    private static final String DEFAULTS = "seqgen.defaults.";

    private static final String SEQUENCES = "seqgen.sequences";

    /** Map keys that need no brackets in a property name. */
    private static final Pattern PLAIN_KEY = Pattern.compile("[a-z0-9][a-z0-9-]*");

    private SeqgenSettings() {
    }

    /** The settings under {@code seqgen.defaults}: built-in defaults overridden by what is set. */
    static SequenceSettings defaults(SequenceProperties properties) {
        try {
            return override(SequenceSettings.builder(), properties).build();
        } catch (SequenceConfigurationException e) {
            throw invalid(DEFAULTS + e.setting(), e.value(), e.allowed(), e);
        }
    }

    /**
     * Adds one {@code seqgen.sequences.<name>} entry: the defaults overridden by what it sets, with each set value's
     * property as its source. A rejected value is named by its property, or the default it was inherited from.
     */
    static void addSequence(SequenceRegistry.Builder registry, String name, SequenceProperties properties,
            SequenceSettings defaults) {
        String prefix = SEQUENCES + key(name) + ".";
        SequenceSettings settings;
        try {
            settings = override(defaults.toBuilder(), properties).build();
        } catch (SequenceConfigurationException e) {
            boolean inherited = Setting.find(e.setting()).map(setting -> value(properties, setting) == null)
                    .orElse(false);
            String allowed = inherited ? e.allowed() + "; the value is inherited from " + DEFAULTS + e.setting()
                    : e.allowed();
            throw invalid(prefix + e.setting(), e.value(), allowed, e);
        }
        Map<Setting, String> sources = new EnumMap<>(Setting.class);
        for (Setting setting : Setting.values()) {
            if (value(properties, setting) != null) {
                sources.put(setting, prefix + setting.key());
            }
        }
        try {
            registry.sequence(name, settings, sources);
        } catch (SequenceConfigurationException e) {
            throw invalid(SEQUENCES + key(name), e.value(), "a sequence name of " + e.allowed(), e);
        }
    }

    /** Renames the {@code table} setting rejected by the JDBC store to its property, {@code seqgen.table}. */
    static SequenceConfigurationException tableSetting(SequenceConfigurationException e) {
        return invalid("seqgen.table", e.value(), e.allowed(), e);
    }

    /** Sets on {@code builder} every setting the properties set. */
    private static SequenceSettings.Builder override(SequenceSettings.Builder builder, SequenceProperties properties) {
        for (Setting setting : Setting.values()) {
            Object value = value(properties, setting);
            if (value != null) {
                setting.apply(builder, value);
            }
        }
        return builder;
    }

    /**
     * The properties' value for a setting, or null when unset, found by the setting's key as Boot binds it: a new
     * {@link Setting} needs only its property in {@link SequenceProperties} ({@code SeqgenPropertiesTest} checks).
     */
    static @Nullable Object value(SequenceProperties properties, Setting setting) {
        return PropertyAccessorFactory.forBeanPropertyAccess(properties).getPropertyValue(propertyPath(setting));
    }

    /** The bean property path of a setting's key: {@code adaptive.max-block-size} to {@code adaptive.maxBlockSize}. */
    static String propertyPath(Setting setting) {
        return camelCase(setting.key());
    }

    /** Dashed to camel case, dots kept: {@code dedicated-connection} to {@code dedicatedConnection}. */
    static String camelCase(String dashed) {
        StringBuilder path = new StringBuilder();
        boolean upper = false;
        for (char c : dashed.toCharArray()) {
            if (c == '-') {
                upper = true;
            } else {
                path.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return path.toString();
    }

    /** The map key as it appears in a property name: {@code .orders}, or {@code [Order.Lines]}. */
    static String key(String name) {
        return PLAIN_KEY.matcher(name).matches() ? "." + name : "[" + name + "]";
    }

    static SequenceConfigurationException invalid(String property, @Nullable Object value, String allowed,
            SequenceConfigurationException cause) {
        SequenceConfigurationException e = new SequenceConfigurationException(property, value, allowed);
        e.initCause(cause);
        return e;
    }
}
