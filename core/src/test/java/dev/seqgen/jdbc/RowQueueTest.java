package dev.seqgen.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore.Sizing;
import dev.seqgen.testing.ForwardingDataSource;
import dev.seqgen.testing.LogRecords;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLSyntaxErrorException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue a start-up reservation reads at a row ({@link RowQueue}) on PostgreSQL (its lock table) and MariaDB (its
 * process list): a transaction holds the row, three reservations queue behind it, a sized one asks, two more queue
 * behind that one, and the holder commits. Each arrival waits until the queue shows the one before it, so the order is
 * forced, not timed.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
class RowQueueTest {

    private final TestDatabase database;
    private final JdbcDialect dialect;
    private final String table = TestDatabase.uniqueTable();
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final HikariDataSource pool;
    @RegisterExtension
    final LogRecords logs = new LogRecords();

    RowQueueTest(TestDatabase database) {
        this.database = database;
        this.dialect = database == TestDatabase.MARIADB ? JdbcDialect.MARIADB : JdbcDialect.POSTGRESQL;
        this.pool = database.newPool(16);
    }

    @AfterEach
    void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(30, TimeUnit.SECONDS);
        pool.close();
        database.dropTable(table);
    }

    private JdbcSequenceStore store() {
        return JdbcSequenceStore.builder(pool).table(table).build();
    }

    @Test
    void aSizedReservationSeesTheTransactionsAheadOfItAndBehindIt() throws Exception {
        JdbcSequenceStore store = store();
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        store.createSequence("invoices", 1);
        AtomicReference<long[]> seen = new AtomicReference<>();
        List<CompletableFuture<ReservedRange>> plain = new ArrayList<>();
        CompletableFuture<ReservedRange> sized;
        try (Connection holder = pool.getConnection()) {
            holdRow(holder);
            for (int i = 1; i <= 3; i++) {
                plain.add(plainReservation(store));
                awaitWaiters(i);
            }
            sized = CompletableFuture.supplyAsync(
                    () -> store.reserveSized("orders", recording(seen, 500), Long.MAX_VALUE), threads);
            awaitWaiters(4);
            for (int i = 5; i <= 6; i++) {
                plain.add(plainReservation(store));
                awaitWaiters(i);
            }
            assertThat(store.reserve("invoices", 7, Long.MAX_VALUE)).as("another row is not queued")
                    .isEqualTo(new ReservedRange(1, 8));
            holder.commit();
        }
        ReservedRange range = sized.get(60, TimeUnit.SECONDS);
        long servedAfter = 0;
        for (CompletableFuture<ReservedRange> reservation : plain) {
            servedAfter += reservation.get(60, TimeUnit.SECONDS).first() > range.first() ? 1 : 0;
        }
        assertThat(seen.get()[1]).as("ahead: the holder and the three queued when it asked").isEqualTo(4);
        // Every other reservation queued before the holder committed, so those served after the sized one were waiting
        // while it held the row. Which ones they are is the database's choice: once the first waiter has updated the
        // row, PostgreSQL's waiters race for the new row version rather than keep their order, and one between two
        // row versions holds no lock for a moment (MariaDB's process list may likewise show a waiter just granted the
        // row still running its statement). Exact counts: aSizedReservationFirstInLineSeesTheTwoBehindIt.
        assertThat(seen.get()[2]).as("behind: at most those served after it").isBetween(0L, servedAfter);
        assertThat(seen.get()[0]).as("it waited for the row").isPositive();
        assertThat(range.count()).as("the size chosen while the row was held").isEqualTo(500);
        assertThat(range.first()).as("after those served before it").isEqualTo(1 + 10 * (5 - servedAfter));
        assertThat(store.nextValue("orders")).hasValue(1 + 5 * 10 + 500);
    }

    @Test
    void aSizedReservationFirstInLineSeesTheTwoBehindIt() throws Exception {
        JdbcSequenceStore store = store();
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        AtomicReference<long[]> seen = new AtomicReference<>();
        List<CompletableFuture<ReservedRange>> plain = new ArrayList<>();
        CompletableFuture<ReservedRange> sized;
        try (Connection holder = pool.getConnection()) {
            holdRow(holder);
            sized = CompletableFuture.supplyAsync(
                    () -> store.reserveSized("orders", recording(seen, 500), Long.MAX_VALUE), threads);
            awaitWaiters(1);
            for (int i = 2; i <= 3; i++) {
                plain.add(plainReservation(store));
                awaitWaiters(i);
            }
            holder.commit(); // a locking read only: the row keeps its version, and the queue its order
        }
        assertThat(sized.get(60, TimeUnit.SECONDS)).isEqualTo(new ReservedRange(1, 501));
        for (CompletableFuture<ReservedRange> reservation : plain) {
            assertThat(reservation.get(60, TimeUnit.SECONDS).first()).isGreaterThan(500);
        }
        assertThat(seen.get()[1]).as("ahead: the holder alone, which neither database shows as waiting").isZero();
        assertThat(seen.get()[2]).as("behind: the two queued after it").isEqualTo(2);
    }

    /**
     * A registry warmed up behind eight waiters: its first block is sized by the queue it waited in (eight turns of
     * that fleet, at least block-size), and the start-up line says so.
     */
    @Test
    void aWarmUpBehindEightSizesItsFirstBlockByTheQueueAndSaysSo() throws Exception {
        JdbcSequenceStore store = store();
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        List<CompletableFuture<ReservedRange>> plain = new ArrayList<>();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).executor(threads).build()) {
            CompletableFuture<Void> warmUp;
            try (Connection holder = pool.getConnection()) {
                holdRow(holder);
                for (int i = 1; i <= 8; i++) {
                    plain.add(plainReservation(store));
                    awaitWaiters(i);
                }
                warmUp = CompletableFuture.runAsync(
                        () -> registry.warmUp(List.of("orders"), Duration.ofSeconds(60)), threads);
                awaitWaiters(9);
                holder.commit();
            }
            warmUp.get(60, TimeUnit.SECONDS);
            for (CompletableFuture<ReservedRange> reservation : plain) {
                assertThat(reservation.get(60, TimeUnit.SECONDS).count()).isEqualTo(10);
            }
            assertThat(logs.messages(Level.INFO)).filteredOn(message -> message.contains("first block:"))
                    .singleElement().asString()
                    .contains("size: 9 ahead and ", " behind at the row, ", "eight turns of that fleet at the rate");
            assertThat(registry.sequence("orders").stats().reservations()).as("one block, or two if it watched")
                    .isBetween(1L, 2L);
        }
    }

    /**
     * Creating a row that exists does not queue behind the transaction that has updated it (an insert-if-missing would,
     * on both databases): the holder commits only once the creation has returned.
     */
    @Test
    void creatingAnExistingRowDoesNotWaitBehindTheTransactionHoldingIt() throws Exception {
        JdbcSequenceStore store = store();
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        try (Connection holder = pool.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement update = holder.prepareStatement(
                    "UPDATE " + table + " SET next_value = next_value + 10 WHERE name = 'orders'")) {
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            CompletableFuture<Void> creation = CompletableFuture.runAsync(() -> store.createSequence("orders", 1),
                    threads);
            assertThat(creation).as("created while the row is held").succeedsWithin(Duration.ofSeconds(30));
            holder.commit();
        }
        assertThat(store.nextValue("orders")).hasValue(11);
    }

    @Test
    void theQueueAtTheRowCanBeReadWithoutReserving() throws Exception {
        JdbcSequenceStore store = store();
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        assertThat(store.queuedAt("orders")).as("nobody at the row").isZero();
        List<CompletableFuture<ReservedRange>> plain = new ArrayList<>();
        try (Connection holder = pool.getConnection()) {
            holdRow(holder);
            for (int i = 1; i <= 2; i++) {
                plain.add(plainReservation(store));
                awaitWaiters(i);
            }
            assertThat(store.queuedAt("orders")).as("the two waiting behind the holder").isEqualTo(2);
            holder.commit();
        }
        for (CompletableFuture<ReservedRange> reservation : plain) {
            assertThat(reservation.get(60, TimeUnit.SECONDS).count()).isEqualTo(10);
        }
    }

    @Test
    void aSizedReservationAloneSeesNoQueue() {
        JdbcSequenceStore store = store();
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        AtomicReference<long[]> seen = new AtomicReference<>();
        ReservedRange range = store.reserveSized("orders", recording(seen, 3), Long.MAX_VALUE);
        assertThat(seen.get()[1]).isZero();
        assertThat(seen.get()[2]).isZero();
        assertThat(range).isEqualTo(new ReservedRange(1, 4));
    }

    @Test
    void aDatabaseThatRefusesToShowTheQueueSizesAsWithoutItAndStopsAsking() {
        AtomicInteger lockTableReads = new AtomicInteger();
        DataSource refused = new ForwardingDataSource(pool) {
            @Override
            public Connection getConnection() throws SQLException {
                Connection connection = delegate.getConnection();
                return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                        new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                            if (method.getName().equals("prepareStatement")
                                    && args[0].equals(RowQueue.sql(dialect))) {
                                lockTableReads.incrementAndGet();
                                throw new SQLSyntaxErrorException("the queue's table does not exist", "42P01");
                            }
                            try {
                                return method.invoke(connection, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }
        };
        JdbcSequenceStore store = JdbcSequenceStore.builder(refused).dialect(dialect).table(table).build();
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        List<long[]> seen = new ArrayList<>();
        Sizing sizing = (waited, ahead, behind) -> {
            seen.add(new long[] {waited, ahead, behind});
            return 5;
        };

        assertThat(store.reserveSized("orders", sizing, Long.MAX_VALUE)).isEqualTo(new ReservedRange(1, 6));
        assertThat(store.reserveSized("orders", sizing, Long.MAX_VALUE)).isEqualTo(new ReservedRange(6, 11));
        assertThat(seen).as("the queue unknown to both").allSatisfy(queue -> assertThat(queue).containsExactly(0, -1,
                -1));
        assertThat(lockTableReads).as("the queue tried once").hasValue(1);
        assertThat(store.queuedAt("orders")).as("nor looked at again").isEqualTo(-1);
        assertThat(lockTableReads).hasValue(1);
    }

    @Test
    void aStoreThatCannotSeeTheQueueSaysSo() {
        assertThat(RowQueue.sql(dialect)).isNotNull();
        assertThat(RowQueue.sql(JdbcDialect.H2)).isNull();
        assertThat(RowQueue.sql(JdbcDialect.HSQLDB)).isNull();
        assertThat(RowQueue.sql(JdbcDialect.SPANNER)).isNull();
        assertThat(RowQueue.sql(JdbcDialect.SPANNER_POSTGRESQL)).isNull();
    }

    /** Locks the row of 'orders' in the holder's open transaction. */
    private void holdRow(Connection holder) throws SQLException {
        holder.setAutoCommit(false);
        try (PreparedStatement lock = holder.prepareStatement(
                "SELECT next_value FROM " + table + " WHERE name = 'orders' FOR UPDATE")) {
            lock.executeQuery().close();
        }
    }

    /** A reservation of 10 values of 'orders' that is not sized by the queue, on a thread of its own. */
    private CompletableFuture<ReservedRange> plainReservation(JdbcSequenceStore store) {
        return CompletableFuture.supplyAsync(() -> store.reserve("orders", 10, Long.MAX_VALUE), threads);
    }

    /** A sizing that records what the store showed it, {waited, ahead, behind}, and takes {@code size}. */
    private static Sizing recording(AtomicReference<long[]> seen, long size) {
        return (waited, ahead, behind) -> {
            seen.set(new long[] {waited, ahead, behind});
            return size;
        };
    }

    /** Waits until {@code count} transactions wait for a row of the table, as the database shows them. */
    private void awaitWaiters(int count) throws Exception {
        String sql = RowQueue.sql(dialect);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Connection connection = pool.getConnection()) {
            while (RowQueue.waiters(connection, sql, table) < count) {
                assertThat(System.nanoTime()).as("%s waiting for the row within 60 s", count).isLessThan(deadline);
                Thread.sleep(5);
            }
        }
    }
}
