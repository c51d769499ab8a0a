package dev.seqgen.boot.autoconfigure;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/** Opens the starter's check of a {@code seqgen.*} property name to the documentation test. */
public final class DocumentedNames {

    private DocumentedNames() {
    }

    /** Whether the name binds to a property of the starter ({@code seqgen.sequences.x.block-size} for any sequence). */
    public static boolean isProperty(String name) {
        return ConfigurationPropertyName.isValid(name) && UnknownProperties.known(ConfigurationPropertyName.of(name));
    }
}
