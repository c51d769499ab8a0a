package dev.seqgen.jdbc;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** What the stores tell frameworks about themselves through the SPI, instead of frameworks testing their class. */
class StoreCapabilitiesTest {

    @Test
    void theTableStoreTakesTheCallersConnectionAndNamesItsTableAndPlatform() {
        JdbcSequenceStore store = JdbcSequenceStore.builder(TestDatabase.H2.dataSource()).table("app.counters")
                .dialect(JdbcDialect.H2).build();
        assertThat(store.transactionType()).isEqualTo(Connection.class);
        assertThat(store.sqlTable()).contains(new SequenceStore.SqlTable("app.counters", "h2"));
    }

    @Test
    void storesThatCannotServeSyncOrKeepNoTableSaySo() {
        NativeSequenceStore nativeStore = NativeSequenceStore.builder(TestDatabase.H2.dataSource()).build();
        assertThat(nativeStore.transactionType()).isNull();
        assertThat(nativeStore.sqlTable()).isEmpty();
        SequenceStore inMemory = new InMemorySequenceStore();
        assertThat(inMemory.sqlTable()).isEmpty();
        assertThat(inMemory.transactionType()).isEqualTo(InMemorySequenceStore.Transaction.class);
    }

    @Test
    void platformsAreTheNamesOfTheSchemaScripts() {
        assertThat(JdbcDialect.POSTGRESQL.platform()).isEqualTo("postgresql");
        assertThat(JdbcDialect.MARIADB.platform()).isEqualTo("mariadb");
        assertThat(JdbcDialect.H2.platform()).isEqualTo("h2");
        assertThat(JdbcDialect.HSQLDB.platform()).isEqualTo("hsqldb");
        assertThat(JdbcDialect.SPANNER.platform()).isEqualTo("spanner");
        assertThat(JdbcDialect.SPANNER_POSTGRESQL.platform()).isEqualTo("spanner-postgresql");
        assertThat(JdbcDialect.SPANNER_POSTGRESQL.storeName()).isEqualTo("spanner");
    }

    @Test
    void hsqldbIsDetectedAndServedByBothStores() {
        assertThat(JdbcDialect.forProductName("HSQL Database Engine")).isEqualTo(JdbcDialect.HSQLDB);
        JdbcSequenceStore store = JdbcSequenceStore.builder(TestDatabase.HSQLDB.dataSource()).build();
        assertThat(store.sqlTable()).contains(new SequenceStore.SqlTable(JdbcSequenceStore.DEFAULT_TABLE, "hsqldb"));
        assertThat(store.transactionType()).isEqualTo(Connection.class);
        try (NativeSequenceStore sequences = NativeSequenceStore.builder(TestDatabase.HSQLDB.dataSource()).build()) {
            assertThat(sequences.name()).isEqualTo("hsqldb");
        }
    }

    @Test
    void onHsqldbInItsDefaultLocksModeSyncIsRefusedAndTheOtherStrategiesServe() {
        org.hsqldb.jdbc.JDBCDataSource locks = new org.hsqldb.jdbc.JDBCDataSource();
        locks.setUrl("jdbc:hsqldb:mem:seqgen-locks-mode");
        locks.setUser("SA");
        JdbcSequenceStore store = JdbcSequenceStore.builder(locks).build();
        store.createTableIfMissing();
        assertThatThrownBy(() -> store.createSequence("invoices",
                SequenceSettings.builder().strategy(Strategy.SYNC).build()))
                .isInstanceOfSatisfying(SequenceConfigurationException.class,
                        e -> assertThat(e.setting()).isEqualTo("sequences.invoices.strategy"))
                .hasMessageContaining("LOCKS mode").hasMessageContaining("hsqldb.tx=mvcc");
        store.createSequence("orders", SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).build());
        assertThat(store.reserve("orders", 10, Long.MAX_VALUE - 1).first()).isEqualTo(1);
    }

    @Test
    void apacheDerbyIsRefusedWithTheAdviceOfSpringBoot() {
        assertThatThrownBy(() -> JdbcDialect.forProductName("Apache Derby"))
                .hasMessageContaining("Apache Derby").hasMessageContaining("retired")
                .hasMessageContaining("H2 or HSQLDB").hasMessageContaining("supported: PostgreSQL");
    }

    /**
     * HSQLDB (MVCC) resolves a deadlock by rolling one transaction back with SQLSTATE 40001: forced here with two
     * transactions that each hold one row and ask for the other's. The store retries what the dialect calls
     * transient.
     */
    @Test
    void hsqldbsDeadlockVictimIsATransientError() throws Exception {
        String table = TestDatabase.uniqueTable();
        TestDatabase.HSQLDB.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v INT)");
        TestDatabase.HSQLDB.execute("INSERT INTO " + table + " VALUES (1, 0), (2, 0)");
        try (Connection first = TestDatabase.HSQLDB.dataSource().getConnection();
                Connection second = TestDatabase.HSQLDB.dataSource().getConnection()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            update(first, table, 1);
            update(second, table, 2);
            AtomicReference<Thread> waiter = new AtomicReference<>();
            CompletableFuture<SQLException> firstAsksForTwo = CompletableFuture.supplyAsync(() -> {
                waiter.set(Thread.currentThread());
                try {
                    update(first, table, 2);
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            }, Concurrently.OWN_THREAD);
            await().atMost(Duration.ofMinutes(1)).until(() -> waiter.get() != null
                    && waiter.get().getState() == Thread.State.WAITING);
            SQLException victim;
            try {
                update(second, table, 1);
                victim = firstAsksForTwo.get(1, TimeUnit.MINUTES);
            } catch (SQLException e) {
                victim = e;
            }
            assertThat((Throwable) victim).as("one of the two is rolled back").isNotNull();
            assertThat(victim.getSQLState()).isEqualTo("40001");
            assertThat(JdbcDialect.HSQLDB.isTransient(victim)).isTrue();
            first.rollback();
            second.rollback();
        } finally {
            TestDatabase.HSQLDB.dropTable(table);
        }
    }

    private static void update(Connection connection, String table, int id) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = " + id);
        }
    }
}
