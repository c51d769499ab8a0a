package dev.seqgen.spanner;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.Statement;
import dev.seqgen.jdbc.JdbcDialect;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@link SpannerSequenceStore}'s statements in GoogleSQL, rewritten for PostgreSQL ({@code $1}, {@code RETURNING}). */
enum SpannerStatements {

    GOOGLE_STANDARD_SQL(JdbcDialect.SPANNER),
    POSTGRESQL(JdbcDialect.SPANNER_POSTGRESQL);

    private static final Pattern PARAMETER = Pattern.compile("@(\\w+)");

    /** The dialect whose {@link JdbcDialect#createTablesSql} creates the store's tables. */
    final JdbcDialect ddl;

    SpannerStatements(JdbcDialect ddl) {
        this.ddl = ddl;
    }

    static SpannerStatements of(Dialect dialect) {
        return dialect == Dialect.POSTGRESQL ? POSTGRESQL : GOOGLE_STANDARD_SQL;
    }

    Statement reserve(String table, String sequence, long count, long lastStart) {
        return bound("UPDATE " + table + " SET next_value = next_value + @count WHERE name = @name"
                + " AND next_value <= @lastStart THEN RETURN next_value", count, sequence, lastStart);
    }

    Statement select(String table, String sequence) {
        return bound("SELECT next_value FROM " + table + " WHERE name = @name", sequence);
    }

    Statement insert(String table, String sequence, long nextValue) {
        return bound("INSERT INTO " + table + " (name, next_value) VALUES (@name, @nextValue)", sequence, nextValue);
    }

    Statement giveBack(String table, String sequence, long expectedNextValue, long restoredNextValue) {
        return bound("UPDATE " + table + " SET next_value = @restored WHERE name = @name AND next_value = @expected",
                restoredNextValue, sequence, expectedNextValue);
    }

    Statement advance(String table, String sequence, long nextValue) {
        return bound("UPDATE " + table + " SET next_value = @target WHERE name = @name AND next_value < @lower",
                nextValue, sequence, nextValue);
    }

    Statement keep(String keptTable, String sequence, long first, long end) {
        return bound("INSERT INTO " + keptTable + " (name, range_start, range_end) VALUES (@name, @first, @end)",
                sequence, first, end);
    }

    /** Up to {@code limit} kept ranges (all for 0), lowest first. */
    Statement keptRanges(String keptTable, String sequence, long from, int limit) {
        return bound("SELECT range_start, range_end FROM " + keptTable + " WHERE name = @name AND range_start >= @from"
                + " ORDER BY range_start" + (limit > 0 ? " LIMIT " + limit : ""), sequence, from);
    }

    Statement takeKept(String keptTable, String sequence, long first, long end) {
        return bound("DELETE FROM " + keptTable + " WHERE name = @name AND range_start = @first AND range_end = @end",
                sequence, first, end);
    }

    /** Counts the tables named {@code table}, optionally {@code schema.table}, in the information schema. */
    Statement tableLookup(String table) {
        // PostgreSQL's catalog folds unquoted names to lower case.
        String name = this == POSTGRESQL ? table.toLowerCase(Locale.ROOT) : table;
        int dot = name.indexOf('.');
        String schema = dot >= 0 ? name.substring(0, dot) : this == POSTGRESQL ? "public" : "";
        return bound("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = @schema"
                + " AND TABLE_NAME = @table", schema, name.substring(dot + 1));
    }

    /** The statement in this dialect, {@code values} (strings or longs) bound in order: by name, or as p1, p2... */
    private Statement bound(String googleSql, Object... values) {
        int[] position = {0};
        Statement.Builder statement = Statement.newBuilder(this == GOOGLE_STANDARD_SQL ? googleSql
                : PARAMETER.matcher(googleSql.replace(" THEN RETURN ", " RETURNING "))
                        .replaceAll(parameter -> Matcher.quoteReplacement("$" + ++position[0])));
        Matcher names = PARAMETER.matcher(googleSql);
        for (int i = 0; i < values.length; i++) {
            String name = this == GOOGLE_STANDARD_SQL && names.find() ? names.group(1) : "p" + (i + 1);
            statement = values[i] instanceof String text ? statement.bind(name).to(text)
                    : statement.bind(name).to((Long) values[i]);
        }
        return statement.build();
    }
}
