package dev.seqgen.testing;

import com.zaxxer.hikari.HikariDataSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivers the wake-ups HSQLDB loses, so that the tests on HSQLDB test seqgen and not HSQLDB's transaction manager.
 *
 * <p>HSQLDB in MVCC mode (seen on 2.5.2, 2.6.1, 2.7.3 and 2.7.4) loses a wake-up when transactions that update one
 * row end some by commit and some by rollback: a session queued behind the row's holder stays listed in the
 * holder's {@code WAITING_FOR_THIS} after the holder's transaction ended, and waits until that session ends another
 * transaction. Plain JDBC shows it, no seqgen involved ({@link HsqldbLostWakeUpReproduction}: sixteen threads,
 * each {@code UPDATE t SET v = v + 1 WHERE id = 1}, then commit or rollback at random: a hang within a few thousand
 * transactions; 40 rounds of all commits, or of all rollbacks, did not hang). In an application the holder's
 * pooled connection is soon used again and the waiter goes on after a delay; in a test whose other threads are
 * done, nobody uses it again and the test hangs
 * (RollbackStormTest on HSQLDB did, about once in ten runs under load). The README tells users.
 *
 * <p>How: a daemon thread reads {@code INFORMATION_SCHEMA.SYSTEM_SESSIONS} every 200 ms on a connection of its
 * own. A session that has no transaction yet is still listed as waited for, in three reads in a row (a session
 * whose transaction ends normally wakes its waiters at once, and no longer lists them), is a lost wake-up: the
 * thread borrows the idle connections of the watched pools, finds the one of that session ({@code SESSION_ID()})
 * and ends on it a transaction that reads an empty table, which releases the waiters. Each release is printed, so
 * a test's output says when one happened. Closed pools are dropped. Nothing else is touched: the tests' own
 * assertions (numbers contiguous, in commit order) are what they were.
 */
public final class HsqldbLostWakeUps {

    private static final List<HikariDataSource> POOLS = new CopyOnWriteArrayList<>();
    /** An empty table in a schema of its own, out of the way of the tests' tables. */
    private static final String WAKE_UP_TABLE = "TEST_WATCHDOG.WAKE_UP";
    private static final AtomicLong RELEASED = new AtomicLong();
    private static String url;
    private static Thread watchdog;

    private HsqldbLostWakeUps() {
    }

    /** Watches the sessions of a pool of the in-memory database at {@code jdbcUrl}. */
    public static synchronized void watch(HikariDataSource pool, String jdbcUrl) {
        POOLS.add(pool);
        if (watchdog == null) {
            url = jdbcUrl;
            watchdog = new Thread(HsqldbLostWakeUps::run, "hsqldb-lost-wake-ups");
            watchdog.setDaemon(true);
            watchdog.start();
        }
    }

    private static void run() {
        Map<Long, Integer> seen = new HashMap<>();
        try (Connection watcher = DriverManager.getConnection(url, "SA", "")) {
            try (Statement statement = watcher.createStatement()) {
                // A read of INFORMATION_SCHEMA does not begin a transaction in HSQLDB; a read of a table does.
                statement.execute("CREATE SCHEMA IF NOT EXISTS TEST_WATCHDOG");
                statement.execute("CREATE TABLE IF NOT EXISTS " + WAKE_UP_TABLE + " (x INT)");
            }
            while (true) {
                Thread.sleep(200);
                Map<Long, Integer> now = new HashMap<>();
                for (long session : orphanedHolders(watcher)) {
                    int times = seen.getOrDefault(session, 0) + 1;
                    now.put(session, times);
                    if (times >= 3) {
                        release(session);
                        now.remove(session);
                    }
                }
                seen = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (SQLException e) {
            System.out.println("hsqldb-lost-wake-ups: stopped: " + e);
        }
    }

    /** Sessions without a transaction that other sessions are still listed as waiting for. */
    private static List<Long> orphanedHolders(Connection watcher) throws SQLException {
        List<Long> sessions = new ArrayList<>();
        try (Statement statement = watcher.createStatement();
                ResultSet rs = statement.executeQuery("SELECT SESSION_ID, WAITING_FOR_THIS"
                        + " FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS WHERE NOT TRANSACTION")) {
            while (rs.next()) {
                String waiting = rs.getString(2);
                if (waiting != null && !waiting.isBlank()) {
                    sessions.add(rs.getLong(1));
                }
            }
        }
        return sessions;
    }

    private static void release(long session) {
        POOLS.removeIf(HikariDataSource::isClosed);
        for (HikariDataSource pool : POOLS) {
            List<Connection> borrowed = new ArrayList<>();
            try {
                while (pool.getHikariPoolMXBean() != null && pool.getHikariPoolMXBean().getIdleConnections() > 0) {
                    Connection connection = pool.getConnection();
                    borrowed.add(connection);
                    if (sessionOf(connection) == session) {
                        connection.setAutoCommit(false);
                        try (Statement statement = connection.createStatement()) {
                            statement.execute("SELECT COUNT(*) FROM " + WAKE_UP_TABLE);
                        }
                        connection.commit();
                        connection.setAutoCommit(true);
                        long count = RELEASED.incrementAndGet();
                        System.out.println("hsqldb-lost-wake-ups: session " + session + " had ended its transaction"
                                + " but was still waited for; ended a transaction on it (release " + count
                                + " in this JVM)");
                        return;
                    }
                }
            } catch (SQLException e) {
                System.out.println("hsqldb-lost-wake-ups: could not release session " + session + ": " + e);
            } finally {
                for (Connection connection : borrowed) {
                    try {
                        connection.close();
                    } catch (SQLException ignored) {
                        // the pool replaces it
                    }
                }
            }
        }
    }

    private static long sessionOf(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("CALL SESSION_ID()")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
