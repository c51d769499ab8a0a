package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceConfigurationException;

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

    private final Environment environment;

    SeqgenConfigurationFailureAnalyzer(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SequenceConfigurationException cause) {
        StringBuilder description = new StringBuilder("Invalid seqgen configuration:\n\n");
        description.append("    Property: ").append(cause.setting()).append('\n');
        description.append("    Value: \"").append(cause.value()).append("\"\n");
        Origin origin = origin(cause.setting());
        if (origin != null) {
            description.append("    Origin: ").append(origin).append('\n');
        }
        description.append("    Allowed: ").append(cause.allowed()).append('\n');
        String action = "Update your application's configuration so that " + cause.setting() + " is "
                + cause.allowed() + ".";
        return new FailureAnalysis(description.toString(), action, cause);
    }

    private Origin origin(String setting) {
        if (environment == null || !ConfigurationPropertyName.isValid(setting)) {
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
