package dev.seqgen.spanner;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.Statement;
import dev.seqgen.jdbc.JdbcDialect;

import java.util.Locale;

/**
 * The statements of {@link SpannerSequenceStore} in each SQL dialect of Spanner, with their parameters bound (the DDL
 * is the JDBC store's, {@link JdbcDialect#createTablesSql}). GoogleSQL names parameters ({@code @name});
 * PostgreSQL-dialect databases number them ({@code $1}, bound as {@code p1}): {@link #param} picks the name.
 */
enum SpannerStatements {

    /** GoogleSQL databases: {@code THEN RETURN}, named parameters. */
    GOOGLE_STANDARD_SQL(JdbcDialect.SPANNER) {
        @Override
        String reserveSql(String table) {
            return "UPDATE " + table + " SET next_value = next_value + @count"
                    + " WHERE name = @name AND next_value <= @lastStart THEN RETURN next_value";
        }

        @Override
        String selectSql(String table) {
            return "SELECT next_value FROM " + table + " WHERE name = @name";
        }

        @Override
        String insertSql(String table) {
            return "INSERT INTO " + table + " (name, next_value) VALUES (@name, @nextValue)";
        }

        @Override
        String giveBackSql(String table) {
            return "UPDATE " + table + " SET next_value = @restored WHERE name = @name AND next_value = @expected";
        }

        @Override
        String advanceSql(String table) {
            return "UPDATE " + table + " SET next_value = @target WHERE name = @name AND next_value < @lower";
        }

        @Override
        String keepSql(String keptTable) {
            return "INSERT INTO " + keptTable + " (name, range_start, range_end) VALUES (@name, @first, @end)";
        }

        @Override
        String keptRangesSql(String keptTable) {
            return "SELECT range_start, range_end FROM " + keptTable + " WHERE name = @name AND range_start >= @from"
                    + " ORDER BY range_start";
        }

        @Override
        String takeKeptSql(String keptTable) {
            return "DELETE FROM " + keptTable + " WHERE name = @name AND range_start = @first AND range_end = @end";
        }

        @Override
        String tableLookupSql() {
            return "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = @schema"
                    + " AND TABLE_NAME = @table";
        }

        @Override
        String defaultSchema() {
            return "";
        }

        @Override
        String catalogName(String name) {
            return name;
        }

        @Override
        String param(String googleSqlName, int position) {
            return googleSqlName;
        }
    },

    /** PostgreSQL-dialect databases: {@code RETURNING}, numbered parameters. */
    POSTGRESQL(JdbcDialect.SPANNER_POSTGRESQL) {
        @Override
        String reserveSql(String table) {
            return "UPDATE " + table + " SET next_value = next_value + $1"
                    + " WHERE name = $2 AND next_value <= $3 RETURNING next_value";
        }

        @Override
        String selectSql(String table) {
            return "SELECT next_value FROM " + table + " WHERE name = $1";
        }

        @Override
        String insertSql(String table) {
            return "INSERT INTO " + table + " (name, next_value) VALUES ($1, $2)";
        }

        @Override
        String giveBackSql(String table) {
            return "UPDATE " + table + " SET next_value = $1 WHERE name = $2 AND next_value = $3";
        }

        @Override
        String advanceSql(String table) {
            return "UPDATE " + table + " SET next_value = $1 WHERE name = $2 AND next_value < $3";
        }

        @Override
        String keepSql(String keptTable) {
            return "INSERT INTO " + keptTable + " (name, range_start, range_end) VALUES ($1, $2, $3)";
        }

        @Override
        String keptRangesSql(String keptTable) {
            return "SELECT range_start, range_end FROM " + keptTable + " WHERE name = $1 AND range_start >= $2"
                    + " ORDER BY range_start";
        }

        @Override
        String takeKeptSql(String keptTable) {
            return "DELETE FROM " + keptTable + " WHERE name = $1 AND range_start = $2 AND range_end = $3";
        }

        @Override
        String tableLookupSql() {
            return "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = $1 AND TABLE_NAME = $2";
        }

        @Override
        String defaultSchema() {
            return "public";
        }

        @Override
        String catalogName(String name) {
            return name.toLowerCase(Locale.ROOT);
        }

        @Override
        String param(String googleSqlName, int position) {
            return "p" + position;
        }
    };

    /** The dialect whose DDL ({@link JdbcDialect#createTablesSql}) creates the store's tables. */
    final JdbcDialect ddl;

    SpannerStatements(JdbcDialect ddl) {
        this.ddl = ddl;
    }

    /**
     * Returns the statements of a database's dialect: those of PostgreSQL-dialect databases for
     * {@link Dialect#POSTGRESQL}, GoogleSQL's for any other.
     */
    static SpannerStatements of(Dialect dialect) {
        return dialect == Dialect.POSTGRESQL ? POSTGRESQL : GOOGLE_STANDARD_SQL;
    }

    /** Adds {@code @count} to the row's next_value if it is at most {@code @lastStart}, returning the new one. */
    abstract String reserveSql(String table);

    abstract String selectSql(String table);

    abstract String insertSql(String table);

    /** Sets the row's next_value to {@code @restored} only if it still is {@code @expected}. */
    abstract String giveBackSql(String table);

    /** Sets the row's next_value to {@code @target} only if it lies below {@code @lower}. */
    abstract String advanceSql(String table);

    /** Inserts a kept range {@code (@name, @first, @end)}. */
    abstract String keepSql(String keptTable);

    /** Reads a sequence's kept ranges that start at or above {@code @from}, lowest first. */
    abstract String keptRangesSql(String keptTable);

    /** Deletes one kept range exactly as it was read: the claim of the range. */
    abstract String takeKeptSql(String keptTable);

    /** Counts the tables of schema {@code @schema} named {@code @table}. */
    abstract String tableLookupSql();

    /** The schema a table name with no schema is in. */
    abstract String defaultSchema();

    /** A schema or table name as the information schema spells it. */
    abstract String catalogName(String name);

    /** The name a parameter is bound by: its GoogleSQL name, or {@code p<position>} for {@code $<position>}. */
    abstract String param(String googleSqlName, int position);

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
        String schema = dot < 0 ? defaultSchema() : table.substring(0, dot);
        String name = table.substring(dot + 1);
        return Statement.newBuilder(tableLookupSql())
                .bind(param("schema", 1)).to(catalogName(schema))
                .bind(param("table", 2)).to(catalogName(name))
                .build();
    }
}
