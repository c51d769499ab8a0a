package dev.seqgen.boot.autoconfigure;

import dev.seqgen.SequenceRegistry;

/**
 * Customizes the auto-configured {@link SequenceRegistry} before it is built, after the {@code seqgen.*}
 * properties have been applied: for example to share an executor for background refills, or to add
 * sequences whose settings are computed in code. Customizer beans are applied in their
 * {@link org.springframework.core.annotation.Order order}.
 */
@FunctionalInterface
public interface SequenceRegistryCustomizer {

    /**
     * Customizes the registry builder.
     *
     * @param builder the builder, already holding the store, the defaults, the configured sequences and the
     *     metrics
     */
    void customize(SequenceRegistry.Builder builder);
}
