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
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SYNC under a rollback storm: sixteen threads on two generators (as two JVMs) run invoice transactions that
 * take one to five numbers, insert one row per number and then roll back half the time, in four ways: a plain
 * rollback, a rollback after the rows were inserted, a rollback after a failed statement (a duplicate key), and
 * a rollback after holding the row lock a while so that waiters pile up. The committed numbers, read back from
 * the table, must be exactly 1..n, and in commit order.
 */
class RollbackStormTest {

    private static final int THREADS = 16;
    private static final int TRANSACTIONS_PER_THREAD = 120;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void committedNumbersAreContiguousAndInCommitOrderWhileHalfTheTransactionsRollBack(TestDatabase database)
            throws Exception {
        HikariDataSource pool = database.newPool(THREADS + 4);
        resources.add(pool);
        String table = TestDatabase.uniqueTable();
        String invoices = TestDatabase.uniqueTable();
        resources.add(() -> database.dropTable(table));
        resources.add(() -> database.dropTable(invoices));
        database.execute("CREATE TABLE " + invoices + " (num BIGINT NOT NULL PRIMARY KEY, thread INT NOT NULL)");
        JdbcSequenceStore store = JdbcSequenceStore.builder(pool).table(table).build();
        SequenceSettings sync = SequenceSettings.builder().strategy(Strategy.SYNC).build();
        SequenceRegistry a = SequenceRegistry.builder(store).defaults(sync).build();
        SequenceRegistry b = SequenceRegistry.builder(store).defaults(sync).build();
        resources.add(a);
        resources.add(b);
        Sequence[] generators = {a.sequence("invoices"), b.sequence("invoices")};
        LongList commitOrder = new LongList();
        AtomicLong rolledBack = new AtomicLong();
        AtomicLong transactions = new AtomicLong();

        long[] committed = Concurrently.run(THREADS, thread -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            LongList mine = new LongList();
            for (int i = 0; i < TRANSACTIONS_PER_THREAD; i++) {
                Sequence invoiceNumbers = generators[(thread + i) % 2];
                int count = random.nextInt(4) == 0 ? 2 + random.nextInt(4) : 1;
                try (Connection connection = pool.getConnection()) {
                    connection.setAutoCommit(false);
                    transactions.incrementAndGet();
                    long[] numbers = invoiceNumbers.nextValuesInTransaction(connection, count);
                    int outcome = random.nextInt(8);
                    if (outcome == 0) {
                        connection.rollback(); // before anything was written
                    } else {
                        insert(connection, invoices, numbers, thread);
                        if (outcome == 1) {
                            connection.rollback(); // after the rows were written
                        } else if (outcome == 2) {
                            try {
                                insert(connection, invoices, new long[] {numbers[0]}, thread);
                                throw new AssertionError("a duplicate key was accepted");
                            } catch (SQLException duplicate) {
                                connection.rollback(); // after a failed statement
                            }
                        } else if (outcome == 3) {
                            LockSupport.parkNanos(random.nextLong(2_000_000)); // others queue on the row lock
                            connection.rollback();
                        } else {
                            synchronized (commitOrder) {
                                commitOrder.addAll(numbers); // the row is still locked by us: this is commit order
                            }
                            connection.commit();
                            mine.addAll(numbers);
                        }
                    }
                    if (outcome <= 3) {
                        rolledBack.incrementAndGet();
                    }
                    connection.setAutoCommit(true);
                }
            }
            return mine.toArray();
        });

        long[] sorted = Concurrently.assertUnique(committed);
        Concurrently.assertContiguousFrom(1, sorted);
        assertThat(rowsOf(database, invoices)).as("numbers in the invoice table").containsExactly(sorted);
        assertThat(commitOrder.toArray()).as("numbers in commit order").containsExactly(sorted);
        assertThat(store.nextValue("invoices")).hasValue(sorted.length + 1);
        double share = (double) rolledBack.get() / transactions.get();
        assertThat(share).as("share of transactions rolled back").isBetween(0.4, 0.6);
        System.out.printf("%s: %,d transactions, %,d rolled back, %,d numbers committed: 1..%d, in commit order%n",
                database, transactions.get(), rolledBack.get(), sorted.length, sorted.length);
    }

    private static void insert(Connection connection, String invoices, long[] numbers, int thread) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO " + invoices + " (num, thread) VALUES (?, ?)")) {
            for (long number : numbers) {
                insert.setLong(1, number);
                insert.setInt(2, thread);
                insert.executeUpdate();
            }
        }
    }

    private static long[] rowsOf(TestDatabase database, String invoices) throws SQLException {
        LongList numbers = new LongList();
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT num FROM " + invoices + " ORDER BY num")) {
            while (rs.next()) {
                numbers.add(rs.getLong(1));
            }
        }
        return numbers.toArray();
    }
}
