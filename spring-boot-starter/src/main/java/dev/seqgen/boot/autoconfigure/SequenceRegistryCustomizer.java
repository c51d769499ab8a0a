package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceRegistry;

/**
 * Customizes the auto-configured {@link SequenceRegistry} before it is built, after the {@code seqgen.*} properties
 * (an executor for refills, sequences computed in code). Customizer beans are applied in their {@code @Order}.
 */
@FunctionalInterface
public interface SequenceRegistryCustomizer {

    /** Customizes the builder, which already holds the store, defaults, configured sequences and metrics. */
    void customize(SequenceRegistry.Builder builder);
}
