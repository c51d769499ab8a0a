package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.AdaptiveProperties;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.Defaults;
import dev.seqgen.boot.autoconfigure.SeqgenProperties.SequenceProperties;

import java.util.regex.Pattern;

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

    /**
     * Returns the settings under {@code seqgen.defaults}.
     *
     * @throws SequenceConfigurationException naming the {@code seqgen.defaults.*} property
     */
    static SequenceSettings defaults(Defaults properties) {
        try {
            SequenceSettings.Builder builder = SequenceSettings.builder()
                    .strategy(properties.getStrategy())
                    .blockSize(properties.getBlockSize())
                    .acquireTimeout(properties.getAcquireTimeout())
                    .initialValue(properties.getInitialValue())
                    .maxValue(properties.getMaxValue())
                    .adaptiveMaxBlockSize(properties.getAdaptive().getMaxBlockSize())
                    .adaptiveTargetRefillInterval(properties.getAdaptive().getTargetRefillInterval());
            if (properties.getLowWatermark() != null) {
                builder.lowWatermark(properties.getLowWatermark());
            }
            if (properties.getAdaptive().getEnabled() != null) {
                builder.adaptive(properties.getAdaptive().getEnabled());
            }
            return builder.build();
        } catch (SequenceConfigurationException e) {
            throw invalid(DEFAULTS + e.setting(), e.value(), e.allowed(), e);
        }
    }

    /**
     * Adds one {@code seqgen.sequences.<name>} entry to the registry: the defaults overridden by what the entry
     * sets.
     *
     * @throws SequenceConfigurationException naming the {@code seqgen.sequences.<name>.*} property; when the
     *     rejected value was inherited, the message says from which {@code seqgen.defaults.*} property
     */
    static void addSequence(SequenceRegistry.Builder registry, String name, SequenceProperties properties,
            SequenceSettings defaults) {
        String prefix = SEQUENCES + key(name) + ".";
        SequenceSettings settings;
        try {
            settings = override(defaults, properties);
        } catch (SequenceConfigurationException e) {
            String allowed = isSet(properties, e.setting()) ? e.allowed()
                    : e.allowed() + "; the value is inherited from " + DEFAULTS + e.setting();
            throw invalid(prefix + e.setting(), e.value(), allowed, e);
        }
        try {
            registry.sequence(name, settings);
        } catch (SequenceConfigurationException e) {
            throw invalid(SEQUENCES + key(name), e.value(), "a sequence name of " + e.allowed(), e);
        }
    }

    /** Renames the {@code table} setting rejected by the JDBC store to its property, {@code seqgen.table}. */
    static SequenceConfigurationException tableSetting(SequenceConfigurationException e) {
        return invalid("seqgen.table", e.value(), e.allowed(), e);
    }

    private static SequenceSettings override(SequenceSettings defaults, SequenceProperties properties) {
        SequenceSettings.Builder builder = defaults.toBuilder();
        if (properties.getStrategy() != null) {
            builder.strategy(properties.getStrategy());
        }
        if (properties.getBlockSize() != null) {
            builder.blockSize(properties.getBlockSize());
        }
        if (properties.getLowWatermark() != null) {
            builder.lowWatermark(properties.getLowWatermark());
        }
        if (properties.getAcquireTimeout() != null) {
            builder.acquireTimeout(properties.getAcquireTimeout());
        }
        if (properties.getInitialValue() != null) {
            builder.initialValue(properties.getInitialValue());
        }
        if (properties.getMaxValue() != null) {
            builder.maxValue(properties.getMaxValue());
        }
        AdaptiveProperties adaptive = properties.getAdaptive();
        if (adaptive.getEnabled() != null) {
            builder.adaptive(adaptive.getEnabled());
        }
        if (adaptive.getMaxBlockSize() != null) {
            builder.adaptiveMaxBlockSize(adaptive.getMaxBlockSize());
        }
        if (adaptive.getTargetRefillInterval() != null) {
            builder.adaptiveTargetRefillInterval(adaptive.getTargetRefillInterval());
        }
        return builder.build();
    }

    /** Whether the sequence's own properties set the setting named in a {@link SequenceConfigurationException}. */
    private static boolean isSet(SequenceProperties properties, String setting) {
        AdaptiveProperties adaptive = properties.getAdaptive();
        Object value = switch (setting) {
            case "strategy" -> properties.getStrategy();
            case "block-size" -> properties.getBlockSize();
            case "low-watermark" -> properties.getLowWatermark();
            case "acquire-timeout" -> properties.getAcquireTimeout();
            case "initial-value" -> properties.getInitialValue();
            case "max-value" -> properties.getMaxValue();
            case "adaptive.enabled" -> adaptive.getEnabled();
            case "adaptive.max-block-size" -> adaptive.getMaxBlockSize();
            case "adaptive.target-refill-interval" -> adaptive.getTargetRefillInterval();
            default -> Boolean.TRUE;
        };
        return value != null;
    }

    /** The map key as it appears in a property name: {@code .orders}, or {@code [Order.Lines]}. */
    static String key(String name) {
        return PLAIN_KEY.matcher(name).matches() ? "." + name : "[" + name + "]";
    }

    static SequenceConfigurationException invalid(String property, Object value, String allowed,
            SequenceConfigurationException cause) {
        SequenceConfigurationException e = new SequenceConfigurationException(property, value, allowed);
        e.initCause(cause);
        return e;
    }
}
