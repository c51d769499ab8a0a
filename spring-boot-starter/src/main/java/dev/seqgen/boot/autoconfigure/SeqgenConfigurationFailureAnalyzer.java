package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Explains a start-up that failed on a seqgen setting: the property (or setting) name, the rejected value,
 * where the value came from, and what is allowed.
 */
class SeqgenConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<SequenceConfigurationException> {

    /** {@code seqgen.sequences.<name>.<setting>} or {@code seqgen.sequences[<name>].<setting>}. */
    private static final Pattern SEQUENCE_SETTING =
            Pattern.compile("seqgen\\.sequences(?:\\.[a-z0-9-]+|\\[[^]]+])\\.(.+)");

    private final Environment environment;

    SeqgenConfigurationFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SequenceConfigurationException cause) {
        StringBuilder description = new StringBuilder("Invalid seqgen configuration:\n\n");
        description.append(cause.setting().startsWith("seqgen.") ? "    Property: " : "    Setting: ")
                .append(cause.setting()).append('\n');
        description.append("    Value: \"").append(cause.value()).append("\"\n");
        Origin origin = origin(cause.setting());
        if (origin != null) {
            description.append("    Origin: ").append(origin).append('\n');
        } else {
            String inheritedFrom = inheritedFrom(cause.setting());
            Origin inherited = inheritedFrom != null ? origin(inheritedFrom) : null;
            if (inherited != null) {
                description.append("    Origin: ").append(inherited).append(" (").append(inheritedFrom).append(")\n");
            }
        }
        description.append("    Allowed: ").append(cause.allowed()).append('\n');
        String action = "Update your application's configuration: " + cause.setting() + " must be "
                + cause.allowed() + ".";
        return new FailureAnalysis(description.toString(), action, cause);
    }

    /** The {@code seqgen.defaults.*} property a {@code seqgen.sequences.<name>.*} setting falls back to. */
    private static String inheritedFrom(String setting) {
        Matcher matcher = SEQUENCE_SETTING.matcher(setting);
        return matcher.matches() ? "seqgen.defaults." + matcher.group(1) : null;
    }

    private Origin origin(String setting) {
        if (!ConfigurationPropertyName.isValid(setting)) {
            return null;
        }
        ConfigurationPropertyName name = ConfigurationPropertyName.of(setting);
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty property = source.getConfigurationProperty(name);
            if (property != null) {
                return property.getOrigin();
            }
        }
        return null;
    }
}
