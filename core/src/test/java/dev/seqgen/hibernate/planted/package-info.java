/**
 * Violations of {@link dev.seqgen.testing.ArchitectureRules} planted in the Hibernate layer's package tree, test code
 * only, so {@code ArchitectureRulesSeenToFailTest} can see each rule fire; the main code's checks import main code
 * only and never see them.
 */
package dev.seqgen.hibernate.planted;
