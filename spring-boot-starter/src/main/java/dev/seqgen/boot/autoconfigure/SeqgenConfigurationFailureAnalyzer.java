package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.Setting;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/**
 * Explains a start-up that failed on a seqgen setting: the property, the rejected value, its origin and what is
 * allowed; or, for a value of an entity's {@code @SeqgenGenerator}, the entity, id property and attribute.
 */
class SeqgenConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<SequenceConfigurationException> {

    /** {@code seqgen.sequences.<name>.<setting>} or {@code [<name>]}, which falls back to seqgen.defaults.<setting>. */
    private static final Pattern SEQUENCE_SETTING =
            Pattern.compile("seqgen\\.sequences(?:\\.[a-z0-9-]+|\\[[^]]+])\\.(.+)");

    /** How seqgen's Hibernate generator names the id it failed to set up, in the exception that wraps the setting. */
    private static final Pattern ANNOTATED_ID =
            Pattern.compile("entity (\\S+), id property '([^']+)', sequence '([^']+)'");

    private final Environment environment;

    SeqgenConfigurationFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SequenceConfigurationException cause) {
        // A setting named bare (not as a property) that the annotation has an attribute for: the value is in code.
        String attribute = Setting.find(cause.setting()).flatMap(Setting::annotationAttribute).orElse(null);
        Matcher annotatedId = attribute != null ? annotatedId(rootFailure, cause) : null;
        if (annotatedId != null) {
            return analyzeAnnotation(annotatedId, attribute, cause);
        }
        StringBuilder description = new StringBuilder("Invalid seqgen configuration:\n\n")
                .append(cause.setting().startsWith("seqgen.") ? "    Property: " : "    Setting: ")
                .append(cause.setting()).append("\n    Value: \"").append(cause.value()).append("\"\n");
        Matcher sequenceSetting = SEQUENCE_SETTING.matcher(cause.setting());
        @Nullable String inheritedFrom = sequenceSetting.matches() ? "seqgen.defaults." + sequenceSetting.group(1)
                : null;
        Origin origin = origin(cause.setting());
        Origin inherited = origin == null && inheritedFrom != null ? origin(inheritedFrom) : null;
        if (origin != null || inherited != null) {
            description.append("    Origin: ").append(origin != null ? origin : inherited + " (" + inheritedFrom + ")")
                    .append('\n');
        }
        description.append("    Allowed: ").append(cause.allowed()).append('\n');
        String action = "Update your application's configuration: " + cause.setting() + " must be "
                + cause.allowed() + ".";
        return new FailureAnalysis(description.toString(), action, cause);
    }

    /** The id whose {@code @SeqgenGenerator} holds the rejected value, from the exceptions that wrap it. */
    private static @Nullable Matcher annotatedId(Throwable rootFailure, SequenceConfigurationException cause) {
        for (Throwable t = rootFailure; t != null && t != cause; t = t.getCause()) {
            Matcher matcher = t.getMessage() != null ? ANNOTATED_ID.matcher(t.getMessage()) : null;
            if (matcher != null && matcher.find()) {
                return matcher;
            }
        }
        return null;
    }

    private static FailureAnalysis analyzeAnnotation(Matcher annotatedId, String attribute,
            SequenceConfigurationException cause) {
        String entity = annotatedId.group(1);
        String property = annotatedId.group(2);
        String sequence = annotatedId.group(3);
        String description = "Invalid seqgen setting in code, on an entity's @SeqgenGenerator annotation:\n\n"
                + "    Entity: " + entity + "\n"
                + "    Id property: " + property + "\n"
                + "    Sequence: " + sequence + "\n"
                + "    Attribute: @SeqgenGenerator(" + attribute + ") (setting " + cause.setting() + ")\n"
                + "    Value: \"" + cause.value() + "\"\n"
                + "    Allowed: " + cause.allowed() + "\n";
        String action = "Change the " + attribute + " attribute of @SeqgenGenerator on " + entity + "." + property
                + " in the source code: " + cause.setting() + " must be " + cause.allowed() + ". The value is not"
                + " in the application's configuration; a property (seqgen.sequences." + sequence + "." + cause.setting()
                + ") would override it.";
        return new FailureAnalysis(description, action, cause);
    }

    private @Nullable Origin origin(String setting) {
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
