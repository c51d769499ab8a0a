package dev.seqgen.spanner;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.Statement;
import dev.seqgen.jdbc.JdbcDialect;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements of {@link SpannerSequenceStore}, parameters bound, each written once in GoogleSQL; PostgreSQL-dialect
 * databases get numbered parameters ({@code $1}, bound as {@code p1}) and {@code RETURNING}.
 */
enum SpannerStatements {

    GOOGLE_STANDARD_SQL(JdbcDialect.SPANNER, ""),

    POSTGRESQL(JdbcDialect.SPANNER_POSTGRESQL, "public");

    private static final Pattern PARAMETER = Pattern.compile("@(\\w+)");

    /** The dialect whose {@link JdbcDialect#createTablesSql} creates the store's tables. */
    final JdbcDialect ddl;
    /** The schema a table name with no schema is in. */
    private final String defaultSchema;

    SpannerStatements(JdbcDialect ddl, String defaultSchema) {
        this.ddl = ddl;
        this.defaultSchema = defaultSchema;
    }


    static SpannerStatements of(Dialect dialect) {
        return dialect == Dialect.POSTGRESQL ? POSTGRESQL : GOOGLE_STANDARD_SQL;
    }

    private String sql(String googleSql) {
        if (this == GOOGLE_STANDARD_SQL) {
            return googleSql;
        }
        int[] position = {0};
        return PARAMETER.matcher(googleSql.replace(" THEN RETURN ", " RETURNING "))
                .replaceAll(parameter -> Matcher.quoteReplacement("$" + ++position[0]));
    }

    private String param(String googleSqlName, int position) {
        return this == GOOGLE_STANDARD_SQL ? googleSqlName : "p" + position;
    }

    /** PostgreSQL's catalog folds unquoted names to lower case. */
    private String catalogName(String name) {
        return this == POSTGRESQL ? name.toLowerCase(Locale.ROOT) : name;
    }

    String reserveSql(String table) {
        return sql("UPDATE " + table + " SET next_value = next_value + @count"
                + " WHERE name = @name AND next_value <= @lastStart THEN RETURN next_value");
    }

    String selectSql(String table) {
        return sql("SELECT next_value FROM " + table + " WHERE name = @name");
    }

    String insertSql(String table) {
        return sql("INSERT INTO " + table + " (name, next_value) VALUES (@name, @nextValue)");
    }

    String giveBackSql(String table) {
        return sql("UPDATE " + table + " SET next_value = @restored WHERE name = @name AND next_value = @expected");
    }

    String advanceSql(String table) {
        return sql("UPDATE " + table + " SET next_value = @target WHERE name = @name AND next_value < @lower");
    }

    String keepSql(String keptTable) {
        return sql("INSERT INTO " + keptTable + " (name, range_start, range_end) VALUES (@name, @first, @end)");
    }

    String keptRangesSql(String keptTable) {
        return sql("SELECT range_start, range_end FROM " + keptTable + " WHERE name = @name AND range_start >= @from"
                + " ORDER BY range_start");
    }

    String takeKeptSql(String keptTable) {
        return sql("DELETE FROM " + keptTable + " WHERE name = @name AND range_start = @first AND range_end = @end");
    }

    String tableLookupSql() {
        return sql("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = @schema"
                + " AND TABLE_NAME = @table");
    }

    Statement reserve(String table, String sequence, long count, long lastStart) {
        return Statement.newBuilder(reserveSql(table))
                .bind(param("count", 1)).to(count)
                .bind(param("name", 2)).to(sequence)
                .bind(param("lastStart", 3)).to(lastStart)
                .build();
    }

    Statement select(String table, String sequence) {
        return Statement.newBuilder(selectSql(table)).bind(param("name", 1)).to(sequence).build();
    }

    Statement insert(String table, String sequence, long nextValue) {
        return Statement.newBuilder(insertSql(table))
                .bind(param("name", 1)).to(sequence)
                .bind(param("nextValue", 2)).to(nextValue)
                .build();
    }

    Statement giveBack(String table, String sequence, long expectedNextValue, long restoredNextValue) {
        return Statement.newBuilder(giveBackSql(table))
                .bind(param("restored", 1)).to(restoredNextValue)
                .bind(param("name", 2)).to(sequence)
                .bind(param("expected", 3)).to(expectedNextValue)
                .build();
    }

    Statement advance(String table, String sequence, long nextValue) {
        return Statement.newBuilder(advanceSql(table))
                .bind(param("target", 1)).to(nextValue)
                .bind(param("name", 2)).to(sequence)
                .bind(param("lower", 3)).to(nextValue)
                .build();
    }

    Statement keep(String keptTable, String sequence, long first, long end) {
        return keptRange(keepSql(keptTable), sequence, first, end);
    }

    /** Up to {@code limit} kept ranges (all for 0), lowest first. */
    Statement keptRanges(String keptTable, String sequence, long from, int limit) {
        return Statement.newBuilder(keptRangesSql(keptTable) + (limit > 0 ? " LIMIT " + limit : ""))
                .bind(param("name", 1)).to(sequence)
                .bind(param("from", 2)).to(from)
                .build();
    }

    Statement takeKept(String keptTable, String sequence, long first, long end) {
        return keptRange(takeKeptSql(keptTable), sequence, first, end);
    }

    private Statement keptRange(String sql, String sequence, long first, long end) {
        return Statement.newBuilder(sql)
                .bind(param("name", 1)).to(sequence)
                .bind(param("first", 2)).to(first)
                .bind(param("end", 3)).to(end)
                .build();
    }

    /** Counts the tables named {@code table}, optionally {@code schema.table}, in the information schema. */
    Statement tableLookup(String table) {
        int dot = table.indexOf('.');
        String schema = dot < 0 ? defaultSchema : table.substring(0, dot);
        String name = table.substring(dot + 1);
        return Statement.newBuilder(tableLookupSql())
                .bind(param("schema", 1)).to(catalogName(schema))
                .bind(param("table", 2)).to(catalogName(name))
                .build();
    }
}
