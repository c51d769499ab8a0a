package dev.seqgen.reliability;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every connection is reset when it goes back to the pool, as PgBouncer ({@code server_reset_query = DISCARD
 * ALL}) and driver-level pools do: {@code DISCARD ALL} on PostgreSQL (prepared statements, which the driver is
 * told to prepare on the server at once, session settings, temporary tables), {@code COM_RESET_CONNECTION} on
 * MariaDB (which also clears {@code LAST_INSERT_ID()}, the value the MariaDB dialect reads back). Eight threads
 * share a pool of three connections, so every reservation runs on a connection reset since the one before.
 *
 * <p>A trigger on the sequence table logs every {@code UPDATE} of the row in the database itself, so the
 * reservations are counted where they happen: exactly one per block (one per value for ASYNC and SYNC), each
 * starting where the previous one ended. The blocks live in the JVM; nothing about them lives in the
 * connection.
 */
class PoolResetTest {

    private static final int THREADS = 8;
    private static final int VALUES_PER_THREAD = 250;
    private static final int BLOCK_SIZE = 100;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    static Stream<Arguments> serversAndStrategies() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB)
                .flatMap(db -> Stream.of(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serversAndStrategies")
    void resettingEveryReturnedConnectionChangesNothing(TestDatabase database, Strategy strategy) throws Exception {
        boolean postgres = database == TestDatabase.POSTGRESQL;
        DatabaseServer server = DatabaseServer.of(database);
        HikariDataSource pool = server.pool(server.url() + (postgres ? "?prepareThreshold=1" : "?useServerPrepStmts=true"),
                3, config -> { });
        resources.add(pool);
        ObservedDataSource resetting = new ObservedDataSource(pool,
                postgres ? ObservedDataSource.DISCARD_ALL : ObservedDataSource.RESET_CONNECTION);
        String table = TestDatabase.uniqueTable();
        String log = table + "_log";
        resources.add(() -> database.dropTable(table));
        resources.add(() -> database.dropTable(log));
        JdbcSequenceStore store = JdbcSequenceStore.builder(resetting).table(table).build();
        store.createTableIfMissing();
        logUpdatesOfTheRow(database, table, log);

        // Fixed blocks: the count of reservations below is exact.
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(BLOCK_SIZE)
                .lowWatermark(BLOCK_SIZE / 2).adaptive(false).build();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build();
        Sequence orders = registry.sequence("orders");
        long[] values = Concurrently.run(THREADS, thread -> {
            long[] mine = new long[VALUES_PER_THREAD];
            for (int i = 0; i < VALUES_PER_THREAD; i++) {
                if (strategy == Strategy.SYNC) {
                    try (Connection connection = resetting.getConnection()) {
                        connection.setAutoCommit(false);
                        mine[i] = orders.nextInTransaction(connection);
                        connection.commit();
                        connection.setAutoCommit(true);
                    }
                } else {
                    mine[i] = orders.next();
                }
            }
            return mine;
        });
        registry.close();

        int total = THREADS * VALUES_PER_THREAD;
        long[] sorted = Concurrently.assertUnique(values);
        Concurrently.assertContiguousFrom(1, sorted);
        assertThat(store.nextValue("orders")).as("next_value after close gave back the unused tail").hasValue(total + 1);

        List<long[]> updates = updatesOfTheRow(database, log);
        List<long[]> reservations = updates.stream().filter(u -> u[1] > u[0]).toList();
        long reservationSize = strategy == Strategy.SYNC || strategy == Strategy.ASYNC ? 1 : BLOCK_SIZE;
        long expectedReservations = total / reservationSize;
        assertThat(orders.stats().reservations()).as("reservations counted by seqgen")
                .isEqualTo(reservations.size());
        // ASYNC_BATCH may have prefetched one block more, which close gave back.
        assertThat((long) reservations.size()).as("UPDATEs of the row that took values, logged by the database")
                .isBetween(expectedReservations, strategy == Strategy.ASYNC_BATCH ? expectedReservations + 1
                        : expectedReservations);
        long expectedFirst = 1;
        for (long[] reservation : reservations) {
            assertThat(reservation[0]).as("each reservation starts where the previous one ended").isEqualTo(expectedFirst);
            assertThat(reservation[1] - reservation[0]).isEqualTo(reservationSize);
            expectedFirst = reservation[1];
        }
        assertThat(resetting.resets()).as("connections reset on return").isEqualTo(resetting.borrowed())
                .isGreaterThanOrEqualTo(reservations.size());
        System.out.printf("%s %s: %,d values, %,d reservations logged by the database, %,d connection resets"
                        + " on a pool of %d%n", database, strategy, total, reservations.size(), resetting.resets(),
                pool.getMaximumPoolSize());
    }

    /** Creates the log table and a trigger that records (old, new) next_value of every UPDATE of the row. */
    private static void logUpdatesOfTheRow(TestDatabase database, String table, String log) {
        database.execute("CREATE TABLE " + log + " (old_value BIGINT NOT NULL, new_value BIGINT NOT NULL)");
        if (database == TestDatabase.POSTGRESQL) {
            database.execute("CREATE FUNCTION " + log + "_f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                    + " INSERT INTO " + log + " VALUES (OLD.next_value, NEW.next_value); RETURN NEW; END $$");
            database.execute("CREATE TRIGGER " + log + "_t AFTER UPDATE ON " + table
                    + " FOR EACH ROW EXECUTE FUNCTION " + log + "_f()");
        } else {
            database.execute("CREATE TRIGGER " + log + "_t AFTER UPDATE ON " + table
                    + " FOR EACH ROW INSERT INTO " + log + " VALUES (OLD.next_value, NEW.next_value)");
        }
    }

    /** The logged updates, ordered by their old value (reservations then form one chain from 1). */
    private static List<long[]> updatesOfTheRow(TestDatabase database, String log) throws Exception {
        List<long[]> updates = new ArrayList<>();
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT old_value, new_value FROM " + log + " ORDER BY old_value")) {
            while (rs.next()) {
                updates.add(new long[] {rs.getLong(1), rs.getLong(2)});
            }
        }
        if (database == TestDatabase.POSTGRESQL) {
            database.execute("DROP FUNCTION IF EXISTS " + log + "_f() CASCADE");
        }
        return updates;
    }
}
