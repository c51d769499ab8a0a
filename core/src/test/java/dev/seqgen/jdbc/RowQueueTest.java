package dev.seqgen.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queue a start-up reservation reads at a PostgreSQL row ({@link RowQueue}): a transaction holds the row, three
 * reservations queue behind it, a sized one asks, two more queue behind that one, and the holder commits. Each arrival
 * waits until the lock table shows the one before it queued, so the order is forced, not timed.
 */
class RowQueueTest {

    private final String table = TestDatabase.uniqueTable();
    private final HikariDataSource pool = TestDatabase.POSTGRESQL.newPool(10);
    private final JdbcSequenceStore store = JdbcSequenceStore.builder(pool).table(table).build();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() throws InterruptedException {
        threads.shutdownNow();
        threads.awaitTermination(30, TimeUnit.SECONDS);
        pool.close();
        TestDatabase.POSTGRESQL.dropTable(table);
    }

    @Test
    void aSizedReservationSeesTheTransactionsAheadOfItAndBehindIt() throws Exception {
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        store.createSequence("invoices", 1);
        AtomicReference<long[]> seen = new AtomicReference<>();
        List<CompletableFuture<ReservedRange>> plain = new ArrayList<>();
        CompletableFuture<ReservedRange> sized;
        try (Connection holder = pool.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock = holder.prepareStatement(
                    "SELECT next_value FROM " + table + " WHERE name = 'orders' FOR UPDATE")) {
                lock.executeQuery().close();
            }
            for (int i = 1; i <= 3; i++) {
                plain.add(CompletableFuture.supplyAsync(() -> store.reserve("orders", 10, Long.MAX_VALUE), threads));
                awaitWaiters(i);
            }
            sized = CompletableFuture.supplyAsync(() -> store.reserveSized("orders", (waited, ahead, behind) -> {
                seen.set(new long[] {waited, ahead, behind});
                return 500;
            }, Long.MAX_VALUE), threads);
            awaitWaiters(4);
            for (int i = 5; i <= 6; i++) {
                plain.add(CompletableFuture.supplyAsync(() -> store.reserve("orders", 10, Long.MAX_VALUE), threads));
                awaitWaiters(i);
            }
            assertThat(store.reserve("invoices", 7, Long.MAX_VALUE)).as("another row is not queued")
                    .isEqualTo(new ReservedRange(1, 8));
            holder.commit();
        }
        ReservedRange range = sized.get(60, TimeUnit.SECONDS);
        for (CompletableFuture<ReservedRange> reservation : plain) {
            reservation.get(60, TimeUnit.SECONDS);
        }
        assertThat(seen.get()[1]).as("ahead: the holder and the three queued").isEqualTo(4);
        assertThat(seen.get()[2]).as("behind: the two that came after it").isEqualTo(2);
        assertThat(seen.get()[0]).as("it waited for the row").isPositive();
        assertThat(range.count()).as("the size chosen while the row was held").isEqualTo(500);
        assertThat(range.first()).as("after the three ahead of it").isEqualTo(31);
        assertThat(store.nextValue("orders")).hasValue(1 + 3 * 10 + 500 + 2 * 10);
    }

    @Test
    void aSizedReservationAloneSeesNoQueue() {
        store.createTableIfMissing();
        store.createSequence("orders", 1);
        AtomicReference<long[]> seen = new AtomicReference<>();
        ReservedRange range = store.reserveSized("orders", (waited, ahead, behind) -> {
            seen.set(new long[] {waited, ahead, behind});
            return 3;
        }, Long.MAX_VALUE);
        assertThat(seen.get()[1]).isZero();
        assertThat(seen.get()[2]).isZero();
        assertThat(range).isEqualTo(new ReservedRange(1, 4));
    }

    @Test
    void aStoreThatCannotSeeTheQueueSaysSo() {
        assertThat(RowQueue.sql(JdbcDialect.MARIADB)).isNull();
        assertThat(RowQueue.sql(JdbcDialect.H2)).isNull();
        assertThat(RowQueue.sql(JdbcDialect.SPANNER_POSTGRESQL)).isNull();
    }

    /** Waits until {@code count} transactions wait for a row of the table, as the lock table shows them. */
    private void awaitWaiters(int count) throws Exception {
        String sql = RowQueue.sql(JdbcDialect.POSTGRESQL);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Connection connection = pool.getConnection()) {
            while (RowQueue.waiters(connection, sql, table) < count) {
                assertThat(System.nanoTime()).as("%s waiting for the row within 60 s", count).isLessThan(deadline);
                Thread.sleep(5);
            }
        }
    }
}
