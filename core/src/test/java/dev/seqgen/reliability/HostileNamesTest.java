package dev.seqgen.reliability;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.CallCounter;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Hostile table names on H2, PostgreSQL and MariaDB: each is rejected with a
 * {@link SequenceConfigurationException} before seqgen borrows a single connection, so no SQL is ever built
 * from it (hostile sequence names are part of the store conformance kit, {@code StoreContract}, which every store
 * runs); and the longest names seqgen accepts really work on each database (64-character sequence names fit
 * the name column; 63-character table names fit PostgreSQL's identifier limit, the tightest of the three).
 */
class HostileNamesTest {

    static final List<String> HOSTILE_TABLE_NAMES = List.of(
            "seqgen_sequences; DROP TABLE users",
            "\"seqgen_sequences\"",
            "seqgen_sequences'",
            "seqgen_sequences--",
            "a.b.c",
            "t\u0430ble", // Cyrillic a
            "täble",
            "t\u200b",
            "1table",
            "x".repeat(64));

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    static Stream<Arguments> databasesAndTableNames() {
        return TestDatabase.all().flatMap(db -> HOSTILE_TABLE_NAMES.stream().map(n -> Arguments.of(db, n)));
    }

    @ParameterizedTest(name = "{0} table name [{index}]")
    @MethodSource("databasesAndTableNames")
    void aHostileTableNameIsRejectedBeforeAnyConnectionIsBorrowed(TestDatabase database, String table) {
        CallCounter counter = new CallCounter();
        DataSource observed = counter.counting(DataSource.class, database.dataSource());
        assertThatThrownBy(() -> JdbcSequenceStore.builder(observed).table(table))
                .isInstanceOfSatisfying(SequenceConfigurationException.class,
                        e -> assertThat(e.setting()).isEqualTo("table"));
        assertThat(counter.calls()).as("calls on the data source").isZero();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theLongestAcceptedNamesWorkOnTheDatabase(TestDatabase database) {
        String table = (TestDatabase.uniqueTable() + "_".repeat(63)).substring(0, 63);
        cleanups.add(() -> database.dropTable(table));
        String name = "n".repeat(63) + "-";
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC).build()).build()) {
            assertThat(registry.sequence(name).next()).isEqualTo(1);
            assertThat(registry.sequence(name.substring(1)).next()).as("a different row").isEqualTo(1);
            assertThat(store.nextValue(name)).hasValue(2);
            // Sequence names are bound parameters, never SQL text: "--" is just two characters of a name.
            assertThat(registry.sequence("orders--").next()).isEqualTo(1);
        }
    }

}
