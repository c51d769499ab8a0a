package dev.seqgen.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lost wake-up of HSQLDB's MVCC mode that {@link HsqldbLostWakeUps} delivers in the tests, in plain JDBC with
 * no seqgen and no pool: sixteen threads, each on a connection of its own, update one row and then commit or roll
 * back at random. Prints the sessions when no transaction ended for 30 s, and exits with status 3; status 0 when
 * all the rounds finished. Not a test (it is meant to hang): run it by hand, for instance to report the defect.
 *
 * <pre>
 * ./mvnw -q -pl core test-compile dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp core/target/test-classes:$(cat /tmp/cp.txt) dev.seqgen.testing.HsqldbLostWakeUpReproduction 40
 * </pre>
 *
 * <p>Seen here: a hang within ten rounds of 1,920 transactions on HSQLDB 2.5.2, 2.6.1, 2.7.3 and 2.7.4; with
 * only commits, or only rollbacks, forty rounds finished.
 */
public final class HsqldbLostWakeUpReproduction {

    private static final int THREADS = 16;
    private static final int TRANSACTIONS_PER_THREAD = 120;

    private HsqldbLostWakeUpReproduction() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        String url = "jdbc:hsqldb:mem:lost-wake-up;hsqldb.tx=mvcc";
        AtomicLong ended = new AtomicLong();
        try (Connection admin = DriverManager.getConnection(url, "SA", "");
                Statement statement = admin.createStatement()) {
            for (int round = 1; round <= rounds; round++) {
                String table = "COUNTER_" + round;
                statement.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v BIGINT NOT NULL)");
                statement.execute("INSERT INTO " + table + " VALUES (1, 0)");
                CountDownLatch done = new CountDownLatch(THREADS);
                for (int t = 0; t < THREADS; t++) {
                    Thread thread = new Thread(() -> {
                        try (Connection connection = DriverManager.getConnection(url, "SA", "");
                                Statement update = connection.createStatement()) {
                            connection.setAutoCommit(false);
                            for (int i = 0; i < TRANSACTIONS_PER_THREAD; i++) {
                                update.executeUpdate("UPDATE " + table + " SET v = v + 1 WHERE id = 1");
                                if (ThreadLocalRandom.current().nextBoolean()) {
                                    connection.commit();
                                } else {
                                    connection.rollback();
                                }
                                ended.incrementAndGet();
                            }
                        } catch (SQLException e) {
                            e.printStackTrace();
                        } finally {
                            done.countDown();
                        }
                    });
                    thread.setDaemon(true);
                    thread.start();
                }
                long last = -1;
                while (!done.await(30, TimeUnit.SECONDS)) {
                    if (ended.get() == last) {
                        System.out.println("round " + round + ": no transaction ended for 30 s; sessions:");
                        printSessions(statement);
                        System.exit(3);
                    }
                    last = ended.get();
                }
                System.out.println("round " + round + ": " + ended.get() + " transactions ended so far");
            }
        }
        System.out.println("no hang in " + rounds + " rounds");
    }

    private static void printSessions(Statement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery("SELECT SESSION_ID, TRANSACTION, WAITING_FOR_THIS,"
                + " THIS_WAITING_FOR, CURRENT_STATEMENT FROM INFORMATION_SCHEMA.SYSTEM_SESSIONS")) {
            while (rs.next()) {
                System.out.printf("  session %s: transaction=%s, waiting for this=[%s], this waiting for=[%s], %s%n",
                        rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5));
            }
        }
    }
}
