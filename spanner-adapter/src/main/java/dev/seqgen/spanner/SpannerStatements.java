package dev.seqgen.spanner;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.Statement;
import dev.seqgen.jdbc.JdbcDialect;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements of {@link SpannerSequenceStore} in each SQL dialect of Spanner, with their parameters bound (the DDL
 * is the JDBC store's, {@link JdbcDialect#createTablesSql}). Each is written once, in GoogleSQL ({@code @name}
 * parameters, {@code THEN RETURN}); PostgreSQL-dialect databases get it with numbered parameters ({@code $1}, bound
 * as {@code p1}) and {@code RETURNING}.
 */
enum SpannerStatements {

    /** GoogleSQL databases. */
    GOOGLE_STANDARD_SQL(JdbcDialect.SPANNER, ""),

    /** PostgreSQL-dialect databases, whose catalog folds unquoted names to lower case. */
    POSTGRESQL(JdbcDialect.SPANNER_POSTGRESQL, "public");

    private static final Pattern PARAMETER = Pattern.compile("@(\\w+)");

    /** The dialect whose DDL ({@link JdbcDialect#createTablesSql}) creates the store's tables. */
    final JdbcDialect ddl;
    /** The schema a table name with no schema is in. */
    private final String defaultSchema;

    SpannerStatements(JdbcDialect ddl, String defaultSchema) {
        this.ddl = ddl;
        this.defaultSchema = defaultSchema;
    }

    /**
     * Returns the statements of a database's dialect: those of PostgreSQL-dialect databases for
     * {@link Dialect#POSTGRESQL}, GoogleSQL's for any other.
     */
    static SpannerStatements of(Dialect dialect) {
        return dialect == Dialect.POSTGRESQL ? POSTGRESQL : GOOGLE_STANDARD_SQL;
    }

    /** A GoogleSQL statement in this dialect: for PostgreSQL, its parameters numbered in order of appearance. */
    private String sql(String googleSql) {
        if (this == GOOGLE_STANDARD_SQL) {
            return googleSql;
        }
        int[] position = {0};
        return PARAMETER.matcher(googleSql.replace(" THEN RETURN ", " RETURNING "))
                .replaceAll(parameter -> Matcher.quoteReplacement("$" + ++position[0]));
    }

    /** The name a parameter is bound by: its GoogleSQL name, or {@code p<position>} for {@code $<position>}. */
    private String param(String googleSqlName, int position) {
        return this == GOOGLE_STANDARD_SQL ? googleSqlName : "p" + position;
    }

    /** A schema or table name as the information schema spells it. */
    private String catalogName(String name) {
        return this == POSTGRESQL ? name.toLowerCase(Locale.ROOT) : name;
    }

    /** Adds {@code @count} to the row's next_value if it is at most {@code @lastStart}, returning the new one. */
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

    /** Sets the row's next_value to {@code @restored} only if it still is {@code @expected}. */
    String giveBackSql(String table) {
        return sql("UPDATE " + table + " SET next_value = @restored WHERE name = @name AND next_value = @expected");
    }

    /** Sets the row's next_value to {@code @target} only if it lies below {@code @lower}. */
    String advanceSql(String table) {
        return sql("UPDATE " + table + " SET next_value = @target WHERE name = @name AND next_value < @lower");
    }

    /** Inserts a kept range {@code (@name, @first, @end)}. */
    String keepSql(String keptTable) {
        return sql("INSERT INTO " + keptTable + " (name, range_start, range_end) VALUES (@name, @first, @end)");
    }

    /** Reads a sequence's kept ranges that start at or above {@code @from}, lowest first. */
    String keptRangesSql(String keptTable) {
        return sql("SELECT range_start, range_end FROM " + keptTable + " WHERE name = @name AND range_start >= @from"
                + " ORDER BY range_start");
    }

    /** Deletes one kept range exactly as it was read: the claim of the range. */
    String takeKeptSql(String keptTable) {
        return sql("DELETE FROM " + keptTable + " WHERE name = @name AND range_start = @first AND range_end = @end");
    }

    /** Counts the tables of schema {@code @schema} named {@code @table}. */
    String tableLookupSql() {
        return sql("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = @schema"
                + " AND TABLE_NAME = @table");
    }

    /** The reservation statement: returns the row's new next_value, or no row if it changed none. */
    Statement reserve(String table, String sequence, long count, long lastStart) {
        return Statement.newBuilder(reserveSql(table))
                .bind(param("count", 1)).to(count)
                .bind(param("name", 2)).to(sequence)
                .bind(param("lastStart", 3)).to(lastStart)
                .build();
    }

    /** Reads the row's next_value. */
    Statement select(String table, String sequence) {
        return Statement.newBuilder(selectSql(table)).bind(param("name", 1)).to(sequence).build();
    }

    /** Inserts the row of a new sequence. */
    Statement insert(String table, String sequence, long nextValue) {
        return Statement.newBuilder(insertSql(table))
                .bind(param("name", 1)).to(sequence)
                .bind(param("nextValue", 2)).to(nextValue)
                .build();
    }

    /** Gives back unused values: a compare-and-set of the row's next_value. */
    Statement giveBack(String table, String sequence, long expectedNextValue, long restoredNextValue) {
        return Statement.newBuilder(giveBackSql(table))
                .bind(param("restored", 1)).to(restoredNextValue)
                .bind(param("name", 2)).to(sequence)
                .bind(param("expected", 3)).to(expectedNextValue)
                .build();
    }

    /** Moves the row forward to {@code nextValue} if it lies below. */
    Statement advance(String table, String sequence, long nextValue) {
        return Statement.newBuilder(advanceSql(table))
                .bind(param("target", 1)).to(nextValue)
                .bind(param("name", 2)).to(sequence)
                .bind(param("lower", 3)).to(nextValue)
                .build();
    }

    /** Keeps the range {@code [first, end)} of a sequence. */
    Statement keep(String keptTable, String sequence, long first, long end) {
        return keptRange(keepSql(keptTable), sequence, first, end);
    }

    /** Reads up to {@code limit} kept ranges of a sequence (all for 0) starting at or above {@code from}, lowest first. */
    Statement keptRanges(String keptTable, String sequence, long from, int limit) {
        return Statement.newBuilder(keptRangesSql(keptTable) + (limit > 0 ? " LIMIT " + limit : ""))
                .bind(param("name", 1)).to(sequence)
                .bind(param("from", 2)).to(from)
                .build();
    }

    /** Deletes the kept range {@code [first, end)} of a sequence. */
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

    /**
     * Counts the tables named {@code table} (optionally {@code schema.table}) in the information schema. The
     * default schema is "" in GoogleSQL and "public" in PostgreSQL-dialect databases, whose catalog also folds
     * unquoted names to lower case.
     */
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
