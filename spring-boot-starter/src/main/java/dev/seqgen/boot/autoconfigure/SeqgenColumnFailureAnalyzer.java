package dev.seqgen.boot.autoconfigure;

import dev.seqgen.hibernate.ColumnRefusesAssignedValuesException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link ColumnRefusesAssignedValuesException}: a column whose values seqgen assigns refuses them (an
 * identity column declared {@code GENERATED ALWAYS AS IDENTITY}, a computed column), and the DDL that changes it.
 */
class SeqgenColumnFailureAnalyzer extends AbstractFailureAnalyzer<ColumnRefusesAssignedValuesException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ColumnRefusesAssignedValuesException cause) {
        return new FailureAnalysis(cause.getMessage(), "Change the column so that it takes the values seqgen assigns,"
                + " in a migration of the application's schema (Flyway, Liquibase) or by hand: " + cause.fix()
                + ". See \"Existing rows\" in seqgen's docs/hibernate.md.", cause);
    }
}
