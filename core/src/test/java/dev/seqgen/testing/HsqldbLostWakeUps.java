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
 * a test's output says when one happened. A failed read (HSQLDB's system tables fail now and then while sessions
 * open and close) is printed and skipped, never the end of the watch. Closed pools are dropped. Nothing else is
 * touched: the tests' own assertions (numbers contiguous, in commit order) are what they were.
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
        long failedReads = 0;
        Connection watcher = null;
        try {
            while (true) {
                Thread.sleep(200);
                // One failed read must not end the watch: HSQLDB's SYSTEM_SESSIONS fails now and then with
                // "General error" (a Java exception inside HSQLDB) while other sessions open and close; here 15 of
                // 145,268 reads failed beside eight threads opening a connection per transaction, and in two of ten
                // hunt runs the watchdog stopped on it early, leaving the rest of that JVM's tests unwatched. The read
                // is lost, the counts of the earlier reads are kept, and a connection that failed with a connection
                // exception (SQLState class 08; HSQLDB's isClosed() and isValid() still say true when its session
                // was closed) is replaced at the next read.
                try {
                    if (watcher == null) {
                        watcher = open();
                    }
                    seen = watch(watcher, seen);
                } catch (SQLException e) {
                    if (watcher != null && isConnectionException(e)) {
                        closeQuietly(watcher);
                        watcher = null;
                    }
                    failedReads++;
                    if (failedReads <= 3) {
                        System.out.println("hsqldb-lost-wake-ups: a read failed, going on (" + failedReads
                                + " in this JVM): " + e + (e.getCause() == null ? "" : ", caused by " + e.getCause()));
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(watcher);
        }
    }

    private static Connection open() throws SQLException {
        Connection watcher = DriverManager.getConnection(url, "SA", "");
        try (Statement statement = watcher.createStatement()) {
            // A read of INFORMATION_SCHEMA does not begin a transaction in HSQLDB; a read of a table does.
            statement.execute("CREATE SCHEMA IF NOT EXISTS TEST_WATCHDOG");
            statement.execute("CREATE TABLE IF NOT EXISTS " + WAKE_UP_TABLE + " (x INT)");
        } catch (SQLException e) {
            closeQuietly(watcher);
            throw e;
        }
        return watcher;
    }

    /** One read: returns how many reads in a row each orphaned holder was seen in, releasing those seen thrice. */
    private static Map<Long, Integer> watch(Connection watcher, Map<Long, Integer> seen) throws SQLException {
        Map<Long, Integer> now = new HashMap<>();
        for (long session : orphanedHolders(watcher)) {
            int times = seen.getOrDefault(session, 0) + 1;
            now.put(session, times);
            if (times >= 3) {
                release(session);
                now.remove(session);
            }
        }
        return now;
    }

    private static boolean isConnectionException(SQLException e) {
        return e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the in-memory database drops the session, the pool replaces a pooled connection
            }
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
                borrowed.forEach(HsqldbLostWakeUps::closeQuietly);
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
