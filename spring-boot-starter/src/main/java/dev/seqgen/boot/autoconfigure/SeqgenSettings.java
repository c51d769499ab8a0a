package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.SequenceProperties;

import java.util.Arrays;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.core.Conventions;

/** The {@code seqgen.*} properties as {@link SequenceSettings}, each rejected value named by its full property. */
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

    /** Adds one {@code seqgen.sequences.<name>} entry over the defaults, each set value's property as its source. */
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
        Map<Setting, String> sources = Arrays.stream(Setting.values())
                .filter(setting -> value(properties, setting) != null)
                .collect(Collectors.toMap(setting -> setting, setting -> prefix + setting.key()));
        try {
            registry.sequence(name, settings, sources);
        } catch (SequenceConfigurationException e) {
            throw invalid(SEQUENCES + key(name), e.value(), "a sequence name of " + e.allowed(), e);
        }
    }

    private static SequenceSettings.Builder override(SequenceSettings.Builder builder, SequenceProperties properties) {
        for (Setting setting : Setting.values()) {
            Object value = value(properties, setting);
            if (value != null) {
                setting.apply(builder, value);
            }
        }
        return builder;
    }

    /** The value of a setting, found by its key as Boot binds it, or null when unset. */
    static @Nullable Object value(SequenceProperties properties, Setting setting) {
        return PropertyAccessorFactory.forBeanPropertyAccess(properties).getPropertyValue(propertyPath(setting));
    }

    /** The bean property path of a setting's key: {@code adaptive.max-block-size} to {@code adaptive.maxBlockSize}. */
    static String propertyPath(Setting setting) {
        return Conventions.attributeNameToPropertyName(setting.key());
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
