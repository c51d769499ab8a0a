package dev.seqgen.boot.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.TestDatabase;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SQL scripts shipped for Flyway and Liquibase users create a table the JDBC store works with when it
 * creates nothing itself.
 */
class SchemaScriptsTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theShippedScriptCreatesATableTheStoreUses(TestDatabase database) throws IOException {
        String table = TestDatabase.uniqueTable();
        String script = script(database.toString());
        assertThat(script).contains("CREATE TABLE IF NOT EXISTS seqgen_sequences (")
                .contains("CREATE TABLE IF NOT EXISTS seqgen_sequences_kept (");
        try {
            for (int run = 0; run < 2; run++) {
                for (String statement : statements(script)) {
                    database.execute(statement.replace("seqgen_sequences", table));
                }
            }

            JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).createTable(false)
                    .build();
            store.createSequence("orders", 1);
            ReservedRange block = store.reserve("orders", 100, Long.MAX_VALUE - 1);
            assertThat(block).isEqualTo(new ReservedRange(1, 101));
            assertThat(store.giveBack("orders", 101, 4)).isTrue();
            assertThat(store.nextValue("orders")).isEqualTo(OptionalLong.of(4));
            assertThat(store.reserve("orders", 1, 4)).isEqualTo(new ReservedRange(4, 5));
            store.reserve("orders", 10, Long.MAX_VALUE - 1);
            assertThat(store.keep("orders", 5, 15)).as("in the script's table of kept ranges").isTrue();
            assertThat(store.takeKept("orders", Long.MAX_VALUE - 1)).hasValue(new ReservedRange(5, 15));
        } finally {
            database.dropTable(table);
            database.dropTable(table + "_kept");
        }
    }

    private static String script(String database) throws IOException {
        try (InputStream in = SchemaScriptsTest.class.getResourceAsStream("/dev/seqgen/schema/" + database + ".sql")) {
            assertThat(in).as(database + ".sql").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The script's statements, without comments and without their closing semicolons. */
    private static List<String> statements(String script) {
        return Arrays.stream(script.replaceAll("(?m)^--.*$", "").split(";"))
                .map(String::trim).filter(statement -> !statement.isEmpty()).toList();
    }
}
