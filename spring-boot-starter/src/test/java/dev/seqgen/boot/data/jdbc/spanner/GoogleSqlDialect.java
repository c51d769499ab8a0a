package dev.seqgen.boot.data.jdbc.spanner;

import org.springframework.data.jdbc.core.dialect.JdbcArrayColumns;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.relational.core.dialect.AnsiDialect;
import org.springframework.data.relational.core.dialect.LimitClause;
import org.springframework.data.relational.core.sql.IdentifierProcessing;
import org.springframework.data.relational.core.sql.IdentifierProcessing.LetterCasing;
import org.springframework.data.relational.core.sql.IdentifierProcessing.Quoting;

/**
 * A Spring Data JDBC dialect for Cloud Spanner's GoogleSQL, the one docs/spring-data-jdbc.md shows: neither Spring
 * Data Relational nor Spanner's JDBC driver has one, and Spring Data JDBC cannot start without. ANSI SQL but for
 * identifiers quoted in backticks (double quotes make string literals in GoogleSQL) and {@code LIMIT}/{@code OFFSET}
 * paging (GoogleSQL has no {@code OFFSET} without a {@code LIMIT}).
 */
public final class GoogleSqlDialect extends AnsiDialect implements JdbcDialect {

    public static final GoogleSqlDialect INSTANCE = new GoogleSqlDialect();

    private static final IdentifierProcessing IDENTIFIERS = IdentifierProcessing.create(new Quoting("`"),
            LetterCasing.AS_IS);

    private static final LimitClause LIMIT = new LimitClause() {

        @Override
        public String getLimit(long limit) {
            return "LIMIT " + limit;
        }

        @Override
        public String getOffset(long offset) {
            return "LIMIT " + Long.MAX_VALUE + " OFFSET " + offset;
        }

        @Override
        public String getLimitOffset(long limit, long offset) {
            return "LIMIT " + limit + " OFFSET " + offset;
        }

        @Override
        public Position getClausePosition() {
            return Position.AFTER_ORDER_BY;
        }
    };

    private GoogleSqlDialect() {
    }

    @Override
    public IdentifierProcessing getIdentifierProcessing() {
        return IDENTIFIERS;
    }

    @Override
    public LimitClause limit() {
        return LIMIT;
    }

    @Override
    public JdbcArrayColumns getArraySupport() {
        return JdbcArrayColumns.Unsupported.INSTANCE;
    }
}
