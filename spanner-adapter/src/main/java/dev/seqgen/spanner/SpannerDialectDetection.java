package dev.seqgen.spanner;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.Dialect;
import org.jspecify.annotations.Nullable;

/**
 * Finds the statements of a store's database: those of the dialect the store was built with, or, when it was
 * built to detect the dialect, those of the dialect the database reports, asked for once and then kept.
 */
final class SpannerDialectDetection {

    private final DatabaseClient client;

    /** The statements in the database's dialect; resolved on first use when the dialect is asked for. */
    private volatile @Nullable SpannerStatements statements;

    /** {@code dialect} null: ask the database at the first operation. */
    SpannerDialectDetection(DatabaseClient client, @Nullable Dialect dialect) {
        this.client = client;
        this.statements = dialect == null ? null : SpannerStatements.of(dialect);
    }

    /** The statements of the database's dialect; a failed question is asked again by the next operation. */
    SpannerStatements statements() {
        SpannerStatements resolved = statements;
        if (resolved == null) {
            resolved = SpannerStatements.of(client.getDialect());
            statements = resolved;
        }
        return resolved;
    }
}
