package dev.seqgen.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What only the native-sequence store does, on H2, HSQLDB, PostgreSQL and MariaDB (the database is the first part of each
 * display name); the contract every store meets is {@link NativeSequenceStoreConformanceTest}.
 */
class NativeSequenceStoreTest {

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    /** A store whose database sequences have a prefix no other test uses, dropped after the test. */
    private NativeSequenceStore store(TestDatabase database) {
        return store(database, database.dataSource(), TestDatabase.uniqueTable() + "_");
    }

    private NativeSequenceStore store(TestDatabase database, javax.sql.DataSource dataSource, String prefix) {
        NativeSequenceStore store = NativeSequenceStore.builder(dataSource).prefix(prefix).build();
        cleanups.add(() -> dropSequences(database, store));
        return store;
    }

    private static void dropSequences(TestDatabase database, NativeSequenceStore store) {
        for (String name : List.of("orders", "invoices", "big", "tickets")) {
            database.execute("DROP SEQUENCE IF EXISTS " + store.dialect().quote(store.databaseSequenceName(name)));
        }
    }

    static Stream<TestDatabase> servers() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void oneReservationIsOneBlockOfTheIncrementAndBlocksAreContiguous(TestDatabase database) {
        NativeSequenceStore store = store(database);
        store.createSequence("orders", SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(100)
                .initialValue(7).build());

        assertThat(store.nextValue("orders")).hasValue(7);
        assertThat(store.reserve("orders", 100, SequenceSettings.LARGEST_MAX_VALUE))
                .isEqualTo(new ReservedRange(7, 107));
        assertThat(store.reserve("orders", 100, SequenceSettings.LARGEST_MAX_VALUE))
                .isEqualTo(new ReservedRange(107, 207));
        assertThat(store.nextValue("orders")).hasValue(207);
        assertThat(store.variableReservationSizes()).isFalse();
        assertThatThrownBy(() -> store.reserve("orders", 50, SequenceSettings.LARGEST_MAX_VALUE))
                .hasMessageContaining("exactly 100").hasMessageContaining(store.databaseSequenceName("orders"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void adoptsASequenceOfTheSameIncrementAndRefusesAnother(TestDatabase database) {
        NativeSequenceStore store = store(database);
        String databaseName = store.databaseSequenceName("orders");
        database.execute("CREATE SEQUENCE " + store.dialect().quote(databaseName) + " START WITH 500 INCREMENT BY 50");
        SequenceSettings fifty = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(50).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(fifty).build()) {
            assertThat(registry.sequence("orders").next()).as("adopted where it stood").isEqualTo(500);
        }
        SequenceSettings hundred = fifty.toBuilder().blockSize(100).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(hundred).build()) {
            assertThatThrownBy(() -> registry.sequence("orders")).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining(databaseName).hasMessageContaining("INCREMENT BY 50")
                    .hasMessageContaining("reserves 100");
        }
        SequenceSettings async = fifty.toBuilder().strategy(Strategy.ASYNC).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(async).build()) {
            assertThatThrownBy(() -> registry.sequence("orders")).hasMessageContaining("INCREMENT BY 50")
                    .hasMessageContaining("reserves 1 value");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void syncIsRefusedWhenTheSequenceIsOpenedNamingTheDatabaseSequence(TestDatabase database) {
        NativeSequenceStore store = store(database);
        SequenceSettings sync = SequenceSettings.builder().strategy(Strategy.SYNC).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(sync).build()) {
            assertThatThrownBy(() -> registry.sequence("invoices")).isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("sequence 'invoices'")
                    .hasMessageContaining(store.databaseSequenceName("invoices"))
                    .hasMessageContaining("gapless");
        }
        assertThat(store.nextValue("invoices")).as("nothing created").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void asyncTakesOneNextvalPerValueAndRefusesSeveralConsecutiveValues(TestDatabase database) {
        NativeSequenceStore store = store(database);
        SequenceSettings async = SequenceSettings.builder().strategy(Strategy.ASYNC).blockSize(1000).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(async).build()) {
            Sequence tickets = registry.sequence("tickets");
            assertThat(tickets.next()).isEqualTo(1);
            assertThat(tickets.next()).isEqualTo(2);
            assertThat(store.nextValue("tickets")).hasValue(3);
            assertThat(tickets.nextValues(1)).containsExactly(3);
            assertThatThrownBy(() -> tickets.nextValues(2)).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("consecutive");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void adaptiveSizingKeepsTheBlockFixedAndNothingIsGivenBack(TestDatabase database) {
        NativeSequenceStore store = store(database);
        SequenceSettings adaptive = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(10)
                .adaptive(true).adaptiveMaxBlockSize(10_000).build();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(adaptive).build();
        Sequence orders = registry.sequence("orders");
        for (int i = 0; i < 2_000; i++) {
            orders.next();
        }
        assertThat(orders.stats().reservationFailures()).isZero();
        registry.close();
        long next = store.nextValue("orders").orElseThrow();
        assertThat((next - 1) % 10).as("every block was 10 values").isZero();
        assertThat(orders.stats().discarded()).as("the tail in hand and the prefetched block are a gap")
                .isEqualTo(next - 1 - 2_000);
        assertThat(store.giveBack("orders", next, 2_001)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void connectionResetsBetweenReservationsChangeNothing(TestDatabase database) throws Exception {
        try (HikariDataSource one = database.newPool(1)) {
            NativeSequenceStore store = store(database, one, TestDatabase.uniqueTable() + "_");
            SequenceSettings batch = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build();
            try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(batch).build()) {
                Sequence orders = registry.sequence("orders");
                List<Long> values = new ArrayList<>();
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < 15; i++) {
                        values.add(orders.next());
                    }
                    try (Connection connection = one.getConnection()) {
                        resetSession(database, connection);
                    }
                }
                assertThat(values).containsExactlyElementsOf(LongStream.rangeClosed(1, 45).boxed().toList());
                assertThat(store.nextValue("orders")).hasValue(51);
            }
        }
    }

    /** What a pool does to a connection it hands to another user: PostgreSQL's DISCARD ALL, MariaDB's reset. */
    private static void resetSession(TestDatabase database, Connection connection) throws Exception {
        if (database == TestDatabase.POSTGRESQL) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("DISCARD ALL");
            }
        } else {
            connection.unwrap(org.mariadb.jdbc.Connection.class).reset();
        }
    }

    @Test
    void onHsqldbAnExhaustedSequenceIsNeverRestartedByAnAdvance() {
        // HSQLDB shows a sequence that reached its maximum at its start value again: an advance that read only
        // that would restart it below values already handed out.
        NativeSequenceStore store = store(TestDatabase.HSQLDB);
        store.createSequence("orders", SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(20)
                .maxValue(45).build());
        assertThat(store.reserve("orders", 20, 45)).isEqualTo(new ReservedRange(1, 21));
        assertThat(store.reserve("orders", 20, 45)).isEqualTo(new ReservedRange(21, 41));
        assertThat(store.reserve("orders", 20, 45)).isEqualTo(new ReservedRange(41, 46));
        assertThatThrownBy(() -> store.reserve("orders", 20, 45)).isInstanceOf(SequenceExhaustedException.class);
        assertThat(store.nextValue("orders")).as("HSQLDB's own view of an exhausted sequence").hasValue(1);

        assertThat(store.advance("orders", 30)).as("an exhausted sequence stays as it is").isFalse();
        assertThatThrownBy(() -> store.reserve("orders", 20, 45)).isInstanceOf(SequenceExhaustedException.class);
    }

    @Test
    void onHsqldbAnUnusedSequenceIsAdvancedPastTheValueItIsAskedAbout() {
        // An unused sequence also shows its start value: the advance takes one value to tell, then restarts.
        NativeSequenceStore store = store(TestDatabase.HSQLDB);
        store.createSequence("orders", SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build());
        assertThat(store.advance("orders", 500)).isTrue();
        assertThat(store.reserve("orders", 10, SequenceSettings.LARGEST_MAX_VALUE))
                .isEqualTo(new ReservedRange(500, 510));
        assertThat(store.advance("orders", 505)).as("never backwards").isFalse();
        assertThat(store.nextValue("orders")).hasValue(510);
    }

    @Test
    void namesThatCannotBeDatabaseSequencesAreRefused() {
        assertThatThrownBy(() -> NativeSequenceStore.builder(TestDatabase.H2.dataSource()).prefix("x\"; DROP"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'prefix'");
        NativeSequenceStore store = store(TestDatabase.H2);
        String tooLong = "o".repeat(64);
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.sequence(tooLong)).isInstanceOf(SequenceConfigurationException.class)
                    .hasMessageContaining("native-sequence store");
            assertThatThrownBy(() -> registry.sequence("x'); DROP SEQUENCE y; --"))
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("sequence name");
        }
    }
}
