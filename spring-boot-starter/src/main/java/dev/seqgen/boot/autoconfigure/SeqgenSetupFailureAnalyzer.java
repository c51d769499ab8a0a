package dev.seqgen.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a {@link SeqgenSetupException}: what is wrong and what to change. */
class SeqgenSetupFailureAnalyzer extends AbstractFailureAnalyzer<SeqgenSetupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SeqgenSetupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
