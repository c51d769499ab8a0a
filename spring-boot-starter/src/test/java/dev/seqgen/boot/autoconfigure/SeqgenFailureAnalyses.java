package dev.seqgen.boot.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;

/** Spring Boot's analysis of a failed start, as tests in other packages read it. */
public final class SeqgenFailureAnalyses {

    private SeqgenFailureAnalyses() {
    }

    /** As Spring Boot does on a failed start: every registered analyzer, the first analysis wins. */
    public static FailureAnalysis analyze(Throwable failure) {
        return SeqgenSetupFailureTest.analyze(failure);
    }
}
