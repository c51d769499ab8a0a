package dev.seqgen.reliability;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A sequence table seqgen may read but not write, or that disappears, using only what the test user can do:
 * on PostgreSQL the owner revokes its own UPDATE (or INSERT) privilege, on MariaDB (where the user holds its
 * privileges on the whole database and cannot revoke them table by table) the "table" is a view that cannot be
 * written; on both, a session that is read-only, as on a replica; and, on all three databases, a table dropped
 * while in use. Every case is a clear error that names the
 * sequence and the table, comes at once (a permission is not retried for the length of the acquire timeout),
 * and hands nothing out.
 */
class UnwritableTableTest {

    /** Long, so that a failure that is wrongly retried shows up as slowness. */
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(10);
    /**
     * A permanent error surfaces before this: a wrongly retried one would take the whole acquire timeout, a correct
     * one a few statements, however loaded the machine is.
     */
    private static final long AT_ONCE_MILLIS = ACQUIRE_TIMEOUT.toMillis();

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    static Stream<TestDatabase> servers() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    static Stream<Arguments> serversAndStrategies() {
        return servers().flatMap(db -> Stream.of(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    private static SequenceSettings settings(Strategy strategy) {
        return SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(5)
                .acquireTimeout(ACQUIRE_TIMEOUT).build();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serversAndStrategies")
    void aTableThatCannotBeUpdatedFailsAtOnceNamingTheSequenceAndTheTable(TestDatabase database, Strategy strategy)
            throws Exception {
        String table = TestDatabase.uniqueTable();
        String visible;
        if (database == TestDatabase.POSTGRESQL) {
            resources.add(() -> database.dropTable(table));
            JdbcSequenceStore.builder(database.dataSource()).table(table).build().createSequence("orders", 1);
            database.execute("REVOKE UPDATE ON " + table + " FROM CURRENT_USER");
            visible = table;
        } else {
            String base = table + "_base";
            resources.add(() -> database.dropTable(base));
            resources.add(() -> database.execute("DROP VIEW IF EXISTS " + table));
            JdbcSequenceStore.builder(database.dataSource()).table(base).build().createSequence("orders", 1);
            database.execute("CREATE VIEW " + table + " AS SELECT name, next_value FROM " + base
                    + " UNION ALL SELECT name, next_value FROM " + base + " WHERE 1 = 0");
            visible = table;
        }
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(visible).createTable(false)
                .build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(strategy)).build()) {
            long start = System.nanoTime();
            // The row exists: first use writes no row, but its write is refused (PostgreSQL: the privilege; MariaDB:
            // the view), so it fails before any reservation.
            assertThatThrownBy(() -> take(registry.sequence("orders"), database))
                    .isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining(visible)
                    .hasMessageContaining(database == TestDatabase.POSTGRESQL ? "permission denied for table"
                            : "is not updatable");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(AT_ONCE_MILLIS);
            for (Sequence orders : registry.sequences()) {
                assertThat(orders.stats().retries()).isZero();
                assertThat(orders.stats().issued()).isZero();
            }
        }
        assertThat(store.nextValue("orders")).as("the row is untouched").hasValue(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aReadOnlySessionAsOnAReplicaFailsAtFirstUseNamingTheTable(TestDatabase database) throws Exception {
        String table = TestDatabase.uniqueTable();
        resources.add(() -> database.dropTable(table));
        JdbcSequenceStore.builder(database.dataSource()).table(table).build().createSequence("orders", 1);
        DatabaseServer server = DatabaseServer.of(database);
        HikariDataSource replica = server.pool(server.url() + (database == TestDatabase.POSTGRESQL
                ? "?options=-c%20default_transaction_read_only%3Don" : "?sessionVariables=tx_read_only=1"), 2,
                config -> { });
        resources.add(replica);
        JdbcSequenceStore store = JdbcSequenceStore.builder(replica).table(table).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(settings(Strategy.ASYNC_BATCH)).build()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> registry.sequence("orders")).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining(table)
                    .hasMessageContaining("SQLSTATE 25006");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(AT_ONCE_MILLIS);
        }
        assertThat(store.nextValue("orders")).as("reading still works").hasValue(1);
    }

    /** MariaDB: covered by the view above, since this user cannot revoke its privileges table by table. */
    @Test
    @DisplayName("postgresql: a table without INSERT privilege fails at first use of a new sequence")
    void aTableWithoutInsertPrivilegeFailsAtFirstUseOfANewSequence() {
        TestDatabase database = TestDatabase.POSTGRESQL;
        String table = TestDatabase.uniqueTable();
        resources.add(() -> database.dropTable(table));
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        store.createTableIfMissing();
        database.execute("REVOKE INSERT ON " + table + " FROM CURRENT_USER");
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(Strategy.BATCH)).build()) {
            assertThatThrownBy(() -> registry.sequence("invoices")).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'invoices'").hasMessageContaining("could not create its row")
                    .hasMessageContaining(table).hasMessageContaining("permission denied");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("allDatabasesAndBlockStrategies")
    void aTableDroppedWhileInUseEndsWithAClearErrorOnceTheValuesInHandAreUsed(TestDatabase database,
            Strategy strategy) {
        String table = TestDatabase.uniqueTable();
        resources.add(() -> database.dropTable(table));
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(strategy)).build()) {
            Sequence orders = registry.sequence("orders");
            orders.next();
            database.dropTable(table);
            long served = 0;
            long start = System.nanoTime();
            try {
                for (; served < 100; served++) {
                    orders.next();
                }
            } catch (SequenceUnavailableException e) {
                assertThat(e.getMessage()).contains("sequence 'orders'").contains(table);
            }
            assertThat(served).as("values in hand served after the drop, then the error").isBetween(1L, 20L);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(AT_ONCE_MILLIS);
            assertThat(orders.stats().retries()).isZero();
            // The same registry never re-creates the row at its initial value behind the application's back.
            assertThatThrownBy(orders::next).isInstanceOf(SequenceUnavailableException.class);
        }
    }

    static Stream<Arguments> allDatabasesAndBlockStrategies() {
        return TestDatabase.all().flatMap(db -> Stream.of(Strategy.BATCH, Strategy.ASYNC_BATCH)
                .map(s -> Arguments.of(db, s)));
    }

    private static long take(Sequence sequence, TestDatabase database) throws Exception {
        if (sequence.strategy() != Strategy.SYNC) {
            return sequence.next();
        }
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try {
                return sequence.nextInTransaction(connection);
            } finally {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        }
    }
}
