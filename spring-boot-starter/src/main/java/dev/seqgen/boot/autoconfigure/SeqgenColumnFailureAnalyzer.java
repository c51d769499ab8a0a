package dev.seqgen.boot.autoconfigure;

import dev.seqgen.hibernate.ColumnRefusesAssignedValuesException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a {@link ColumnRefusesAssignedValuesException}: every column that refuses seqgen's values, with the DDL. */
class SeqgenColumnFailureAnalyzer extends AbstractFailureAnalyzer<ColumnRefusesAssignedValuesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ColumnRefusesAssignedValuesException cause) {
        return new FailureAnalysis(cause.getMessage(), "Change " + (cause.columns().size() == 1 ? "the column"
                : "the " + cause.columns().size() + " columns") + " so that they take the values seqgen assigns, in"
                + " a migration of the application's schema (Flyway, Liquibase) or by hand: " + cause.fix()
                + ". See \"Existing rows\" in seqgen's docs/hibernate.md.", cause);
    }
}
