package dev.seqgen.boot.autoconfigure;

import dev.seqgen.hibernate.SeqgenMappingException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.NestedExceptionUtils;

/** Explains a {@link SeqgenMappingException}: where, the problem, the root cause (after seqgen's other analyzers). */
class SeqgenMappingFailureAnalyzer extends AbstractFailureAnalyzer<SeqgenMappingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SeqgenMappingException cause) {
        StringBuilder description = new StringBuilder("seqgen could not set up a generated value:\n\n")
                .append("    Where: ").append(cause.where()).append('\n')
                .append("    Problem: ").append(cause.problem()).append('\n');
        Throwable reason = NestedExceptionUtils.getRootCause(cause);
        if (reason != null && reason.getMessage() != null && !cause.problem().contains(reason.getMessage())) {
            description.append("    Cause: ").append(reason.getClass().getName()).append(": ")
                    .append(reason.getMessage()).append('\n');
        }
        String action = cause.action() != null ? cause.action() + "."
                : "Do what the problem above says, for the entity and property it names. See seqgen's"
                        + " docs/hibernate.md.";
        return new FailureAnalysis(description.toString(), action, cause);
    }
}
