package dev.seqgen.boot.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.testing.RepositoryFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * seqgen's tables have one DDL per table and database, {@link JdbcDialect#createTablesSql}: the JDBC stores, the
 * Spanner store, the Spring Boot starter and Hibernate's schema tools run those statements (SchemaExportTest and
 * SpannerSchemaExportTest show Hibernate's scripts holding them), and no other main source or resource writes a
 * {@code CREATE TABLE}.
 */
class OneDdlPerTableTest {

    /** A statement that creates a table, in a string literal or a script. */
    private static final Pattern CREATE_TABLE = Pattern.compile("(?i)(\"|^\\s*)CREATE TABLE", Pattern.MULTILINE);

    @Test
    void onlyTheJdbcDialectWritesCreateTable() throws IOException {
        Path root = RepositoryFiles.find("CONTRIBUTING.md").getParent();
        List<Path> writers;
        try (Stream<Path> files = Stream.of("core", "spanner-adapter", "spring-boot-starter")
                .map(module -> root.resolve(module).resolve("src/main")).flatMap(OneDdlPerTableTest::walk)) {
            writers = files.filter(file -> CREATE_TABLE.matcher(read(file)).find()).toList();
        }
        assertThat(writers).containsExactly(root.resolve("core/src/main/java/dev/seqgen/jdbc/JdbcDialect.java"));
    }

    @Test
    void eachDatabaseHasTheTwoTablesStatements() {
        for (JdbcDialect dialect : JdbcDialect.values()) {
            assertThat(dialect.createTablesSql("app.counters")).as(dialect.name()).satisfiesExactly(
                    table -> assertThat(table).startsWith("CREATE TABLE IF NOT EXISTS app.counters (name "),
                    kept -> assertThat(kept).startsWith("CREATE TABLE IF NOT EXISTS app.counters_kept (name "));
        }
    }

    private static Stream<Path> walk(Path directory) {
        try {
            return Files.walk(directory).filter(Files::isRegularFile);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
