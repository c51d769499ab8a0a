package dev.seqgen.spanner;

import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.Statement;
import dev.seqgen.testing.RepositoryFiles;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The store's statements in both dialects, text and bound parameters, as the database receives them: the
 * PostgreSQL dialect is otherwise seen only on a PostgreSQL-dialect database.
 */
@DisplayName("SpannerStatements")
class SpannerStatementsTest {

    @Test
    @DisplayName("statements: the dialect of a database picks its statements, GoogleSQL's unless PostgreSQL")
    void theDialectPicksTheStatements() {
        assertThat(SpannerStatements.of(Dialect.POSTGRESQL)).isEqualTo(SpannerStatements.POSTGRESQL);
        assertThat(SpannerStatements.of(Dialect.GOOGLE_STANDARD_SQL)).isEqualTo(SpannerStatements.GOOGLE_STANDARD_SQL);
        assertThat(SpannerStatements.of(null)).isEqualTo(SpannerStatements.GOOGLE_STANDARD_SQL);
    }

    @Test
    @DisplayName("statements: GoogleSQL names its parameters and returns with THEN RETURN")
    void googleSql() {
        SpannerStatements sql = SpannerStatements.GOOGLE_STANDARD_SQL;

        assertThat(sql.reserve("seq", "orders", 10, 90)).isEqualTo(Statement.newBuilder(
                "UPDATE seq SET next_value = next_value + @count WHERE name = @name AND next_value <= @lastStart"
                        + " THEN RETURN next_value")
                .bind("count").to(10).bind("name").to("orders").bind("lastStart").to(90).build());
        assertThat(sql.select("seq", "orders")).isEqualTo(Statement.newBuilder(
                "SELECT next_value FROM seq WHERE name = @name").bind("name").to("orders").build());
        assertThat(sql.insert("seq", "orders", 1)).isEqualTo(Statement.newBuilder(
                "INSERT INTO seq (name, next_value) VALUES (@name, @nextValue)")
                .bind("name").to("orders").bind("nextValue").to(1).build());
        assertThat(sql.giveBack("seq", "orders", 20, 15)).isEqualTo(Statement.newBuilder(
                "UPDATE seq SET next_value = @restored WHERE name = @name AND next_value = @expected")
                .bind("restored").to(15).bind("name").to("orders").bind("expected").to(20).build());
        assertThat(sql.advance("seq", "orders", 50)).isEqualTo(Statement.newBuilder(
                "UPDATE seq SET next_value = @target WHERE name = @name AND next_value < @lower")
                .bind("target").to(50).bind("name").to("orders").bind("lower").to(50).build());
        assertThat(sql.ddl.createTablesSql("seq").get(0)).isEqualTo("CREATE TABLE IF NOT EXISTS seq"
                + " (name STRING(64) NOT NULL, next_value INT64 NOT NULL) PRIMARY KEY (name)");
        assertThat(sql.tableLookup("Seq")).isEqualTo(Statement.newBuilder(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = @schema AND TABLE_NAME = @table")
                .bind("schema").to("").bind("table").to("Seq").build());
        assertThat(sql.tableLookup("App.Seq")).isEqualTo(Statement.newBuilder(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = @schema AND TABLE_NAME = @table")
                .bind("schema").to("App").bind("table").to("Seq").build());
    }

    @Test
    @DisplayName("statements: the PostgreSQL dialect numbers its parameters, bound as p1, p2, p3, and folds names")
    void postgresql() {
        SpannerStatements sql = SpannerStatements.POSTGRESQL;

        assertThat(sql.reserve("seq", "orders", 10, 90)).isEqualTo(Statement.newBuilder(
                "UPDATE seq SET next_value = next_value + $1 WHERE name = $2 AND next_value <= $3 RETURNING next_value")
                .bind("p1").to(10).bind("p2").to("orders").bind("p3").to(90).build());
        assertThat(sql.select("seq", "orders")).isEqualTo(Statement.newBuilder(
                "SELECT next_value FROM seq WHERE name = $1").bind("p1").to("orders").build());
        assertThat(sql.insert("seq", "orders", 1)).isEqualTo(Statement.newBuilder(
                "INSERT INTO seq (name, next_value) VALUES ($1, $2)").bind("p1").to("orders").bind("p2").to(1).build());
        assertThat(sql.giveBack("seq", "orders", 20, 15)).isEqualTo(Statement.newBuilder(
                "UPDATE seq SET next_value = $1 WHERE name = $2 AND next_value = $3")
                .bind("p1").to(15).bind("p2").to("orders").bind("p3").to(20).build());
        assertThat(sql.advance("seq", "orders", 50)).isEqualTo(Statement.newBuilder(
                "UPDATE seq SET next_value = $1 WHERE name = $2 AND next_value < $3")
                .bind("p1").to(50).bind("p2").to("orders").bind("p3").to(50).build());
        assertThat(sql.ddl.createTablesSql("seq").get(0)).isEqualTo(
                "CREATE TABLE IF NOT EXISTS seq (name VARCHAR(64) NOT NULL PRIMARY KEY, next_value BIGINT NOT NULL)");
        assertThat(sql.tableLookup("Seq")).isEqualTo(Statement.newBuilder(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = $1 AND TABLE_NAME = $2")
                .bind("p1").to("public").bind("p2").to("seq").build());
        assertThat(sql.tableLookup("App.Seq")).isEqualTo(Statement.newBuilder(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = $1 AND TABLE_NAME = $2")
                .bind("p1").to("app").bind("p2").to("seq").build());
    }

    /**
     * docs/spanner.md's "What it sends" writes every GoogleSQL statement of the store as the store sends it, for its
     * table {@code t} and the table of kept ranges {@code t_kept}: a statement changed in the code cannot stay
     * described as it was.
     */
    @Test
    @DisplayName("statements: docs/spanner.md writes every GoogleSQL statement as the store sends it")
    void theGuideWritesEveryStatement() throws Exception {
        String guide = Files.readString(RepositoryFiles.find("docs/spanner.md"));
        int start = guide.indexOf("## What it sends");
        assertThat(start).as("the section").isNotNegative();
        String section = guide.substring(start, guide.indexOf("\n## ", start + 1));
        List<String> documented = Pattern.compile("`([^`]+)`").matcher(section).results().map(code -> code.group(1))
                .toList();
        SpannerStatements sql = SpannerStatements.GOOGLE_STANDARD_SQL;
        List<String> ddl = sql.ddl.createTablesSql("t");
        List<String> sent = List.of(sql.reserve("t", "orders", 1, 1).getSql(), sql.select("t", "orders").getSql(),
                sql.insert("t", "orders", 1).getSql(), sql.giveBack("t", "orders", 1, 1).getSql(),
                sql.advance("t", "orders", 1).getSql(), ddl.get(0), ddl.get(1),
                sql.keep("t_kept", "orders", 0, 1).getSql(),
                sql.keptRanges("t_kept", "orders", 0, 0).getSql(), sql.keptRanges("t_kept", "orders", 0, 8).getSql(),
                sql.takeKept("t_kept", "orders", 0, 1).getSql(), sql.tableLookup("t").getSql());
        assertThat(sent).as("the store's statements, against docs/spanner.md")
                .allSatisfy(statement -> assertThat(documented).contains(statement));
    }
}
