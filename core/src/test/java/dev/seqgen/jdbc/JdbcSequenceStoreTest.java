package dev.seqgen.jdbc;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.StrategyHarness;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The JDBC store on H2, PostgreSQL and MariaDB; the database is the first part of each display name. */
class JdbcSequenceStoreTest {

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    private JdbcSequenceStore store(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        cleanups.add(() -> database.dropTable(table));
        return JdbcSequenceStore.builder(database.dataSource()).table(table).build();
    }

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(db -> Stream.of(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    /** Runs work in a transaction on its own pooled connection, committing it. */
    static long inTransaction(DataSource dataSource, Function<Object, Long> work) throws Exception {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                long value = work.apply(connection);
                connection.commit();
                return value;
            } catch (RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("databasesAndStrategies")
    void issuesAHundredThousandUniqueValuesFromThreeGeneratorsAndTwentyFourThreads(TestDatabase database,
            Strategy strategy) throws Exception {
        JdbcSequenceStore store = store(database);
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(100).lowWatermark(50).build();

        StrategyHarness.Outcome outcome = StrategyHarness.run(store, settings, "orders", 3, 8, 4_167,
                work -> inTransaction(database.dataSource(), work));

        assertThat(outcome.sortedValues()).hasSizeGreaterThanOrEqualTo(100_000);
        if (strategy == Strategy.SYNC || strategy == Strategy.ASYNC) {
            Concurrently.assertContiguousFrom(1, outcome.sortedValues());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void syncIsGaplessAndInCommitOrderWhileAThirdOfTheTransactionsRollBack(TestDatabase database) throws Exception {
        JdbcSequenceStore store = store(database);
        SequenceSettings sync = SequenceSettings.builder().strategy(Strategy.SYNC).build();
        List<Long> commitOrder = Collections.synchronizedList(new ArrayList<>());
        try (SequenceRegistry a = SequenceRegistry.builder(store).defaults(sync).build();
                SequenceRegistry b = SequenceRegistry.builder(store).defaults(sync).build()) {
            Sequence[] generators = {a.sequence("invoices"), b.sequence("invoices")};
            long[] committed = Concurrently.run(8, thread -> {
                long[] mine = new long[600];
                int n = 0;
                for (int i = 0; i < 900; i++) {
                    try (Connection connection = database.dataSource().getConnection()) {
                        connection.setAutoCommit(false);
                        long value = generators[(thread + i) % 2].nextInTransaction(connection);
                        if (i % 3 == 1) {
                            connection.rollback();
                        } else {
                            commitOrder.add(value); // the row is still locked by us: this is commit order
                            connection.commit();
                            mine[n++] = value;
                        }
                        connection.setAutoCommit(true);
                    }
                }
                return Arrays.copyOf(mine, n);
            });
            long[] sorted = Concurrently.assertUnique(committed);
            assertThat(sorted).hasSize(8 * 600);
            Concurrently.assertContiguousFrom(1, sorted);
            assertThat(commitOrder).isSorted();
            assertThat(store.nextValue("invoices")).hasValue(sorted.length + 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void syncHandsOutConsecutiveValuesWithinOneTransaction(TestDatabase database) throws Exception {
        JdbcSequenceStore store = store(database);
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.SYNC).build()).build()) {
            Sequence invoices = registry.sequence("invoices");
            try (Connection connection = database.dataSource().getConnection()) {
                connection.setAutoCommit(false);
                assertThat(invoices.nextInTransaction(connection)).isEqualTo(1);
                assertThat(invoices.nextValuesInTransaction(connection, 3)).containsExactly(2, 3, 4);
                assertThat(invoices.nextInTransaction(connection)).isEqualTo(5);
                connection.rollback();
                assertThat(invoices.nextInTransaction(connection)).as("the rollback undid all five").isEqualTo(1);
                connection.commit();
                connection.setAutoCommit(true);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void syncRefusesAConnectionInAutoCommitMode(TestDatabase database) throws Exception {
        JdbcSequenceStore store = store(database);
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.SYNC).build()).build();
                Connection connection = database.dataSource().getConnection()) {
            assertThatThrownBy(() -> registry.sequence("invoices").nextInTransaction(connection))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auto-commit");
            assertThat(store.nextValue("invoices")).hasValue(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void createsAMissingTableAndRowAtTheInitialValue(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        assertThat(store.dialect().storeName()).isEqualTo(database.toString());
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC).initialValue(1000).build()).build()) {
            assertThat(registry.sequence("orders").next()).isEqualTo(1000);
            assertThat(store.nextValue("orders")).hasValue(1001);
            // A second store over the same table leaves the existing row alone.
            store.createSequence("orders", 1);
            assertThat(store.nextValue("orders")).hasValue(1001);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void missingTableWithoutSchemaCreationIsAnErrorNamingTheTable(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).createTable(false).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.sequence("orders")).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining(table);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void deletedRowIsAnErrorNamingTheSequence(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC).build()).build()) {
            Sequence orders = registry.sequence("orders");
            orders.next();
            database.execute("DELETE FROM " + store.table() + " WHERE name = 'orders'");
            assertThatThrownBy(orders::next).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining("no row");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void blocksStopAtTheMaximumValueAndNeverWrap(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).maxValue(25).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = registry.sequence("orders");
            long[] values = LongStream.range(0, 25).map(i -> orders.next()).toArray();
            assertThat(values).containsExactly(LongStream.rangeClosed(1, 25).toArray());
            assertThatThrownBy(orders::next).isInstanceOf(SequenceExhaustedException.class)
                    .hasMessageContaining("sequence 'orders'");
            assertThat(store.nextValue("orders")).hasValue(26);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void reachesLongMaxValueWithoutOverflowInSql(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(1000)
                .initialValue(SequenceSettings.LARGEST_MAX_VALUE - 5).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence big = registry.sequence("big");
            long[] values = LongStream.range(0, 6).map(i -> big.next()).toArray();
            assertThat(values).containsExactly(LongStream.rangeClosed(Long.MAX_VALUE - 6, Long.MAX_VALUE - 1).toArray());
            assertThatThrownBy(big::next).isInstanceOf(SequenceExhaustedException.class);
            assertThat(store.nextValue("big")).hasValue(Long.MAX_VALUE);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void giveBackIsACompareAndSetOnTheRow(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        store.createSequence("orders", 1);
        assertThat(store.reserve("orders", 100, Long.MAX_VALUE - 1).end()).isEqualTo(101);
        assertThat(store.giveBack("orders", 100, 50)).isFalse();
        assertThat(store.nextValue("orders")).hasValue(101);
        assertThat(store.giveBack("orders", 101, 50)).isTrue();
        assertThat(store.nextValue("orders")).hasValue(50);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void closingTheRegistryGivesBackTheUnusedTailOnTheRow(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(100).build();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build();
        Sequence orders = registry.sequence("orders");
        for (int i = 0; i < 10; i++) {
            orders.next();
        }
        registry.close();
        assertThat(store.nextValue("orders")).hasValue(11);
    }

    @Test
    void hostileNamesNeverReachSql() {
        DataSource dataSource = TestDatabase.H2.dataSource();
        assertThatThrownBy(() -> JdbcSequenceStore.builder(dataSource).table("t; DROP TABLE users"))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'table'");
        JdbcSequenceStore store = store(TestDatabase.H2);
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.sequence("x'); DELETE FROM " + store.table() + "; --"))
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("sequence name");
        }
    }
}
