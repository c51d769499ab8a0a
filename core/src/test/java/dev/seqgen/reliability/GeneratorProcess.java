package dev.seqgen.reliability;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.spi.SequenceStore;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One generator JVM of {@link KilledJvmTest}: several threads take values of the sequence {@code orders} until
 * told to stop, and make each value durable before taking the next.
 *
 * <ul>
 *   <li>SYNC: each value is inserted as the primary key of {@code <values table>} in the transaction that took
 *       it, so the table holds exactly the committed values.
 *   <li>Other strategies: each value is appended to this thread's file with one {@code write} system call, so
 *       it survives a {@code kill -9} of this JVM the moment the call returns; at most one value per thread
 *       (taken, not yet written) is in flight when the JVM dies.
 * </ul>
 *
 * <p>Each thread pauses {@code pauseMicros} after each value, as an application does between orders, so that
 * a JVM spends most of its time with part of a block in hand rather than waiting for the next one.
 *
 * <p>Arguments: {@code strategy blockSize table valuesTable outputDir jvmId threads pauseMicros}, where a table of
 * {@code native:<prefix>} selects the native-sequence store with that prefix; the database is given
 * by the environment ({@code SEQGEN_CHILD_URL}, {@code _USER}, {@code _PASSWORD}). Protocol on stdout:
 * {@code READY} once every thread has its first value; after {@code STOP} (or end of input) on stdin, the
 * threads finish, the registry closes (giving back its tail where safe) and the JVM prints
 * {@code STATS issued=<n> discarded=<n> reservations=<n> errors=<n>} and exits.
 */
public final class GeneratorProcess {

    /** The prefix of the table argument that selects the native-sequence store: {@code native:<prefix>}. */
    static final String NATIVE = "native:";

    private GeneratorProcess() {
    }

    public static void main(String[] args) throws Exception {
        Strategy strategy = Strategy.valueOf(args[0]);
        int blockSize = Integer.parseInt(args[1]);
        String table = args[2];
        String valuesTable = args[3];
        Path outputDir = Path.of(args[4]);
        int jvm = Integer.parseInt(args[5]);
        int threads = Integer.parseInt(args[6]);
        long pauseNanos = Long.parseLong(args[7]) * 1_000;

        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(System.getenv("SEQGEN_CHILD_URL"));
        config.setUsername(System.getenv("SEQGEN_CHILD_USER"));
        config.setPassword(System.getenv("SEQGEN_CHILD_PASSWORD"));
        config.setMaximumPoolSize(threads + 2);
        config.setConnectionTimeout(10_000);
        config.setPoolName("generator-" + jvm);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            SequenceStore store = table.startsWith(NATIVE)
                    ? NativeSequenceStore.builder(pool).prefix(table.substring(NATIVE.length())).build()
                    : JdbcSequenceStore.builder(pool).table(table).build();
            SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(blockSize)
                    .lowWatermark(blockSize / 2).adaptiveMaxBlockSize(KilledJvmTest.MAX_BLOCK_FACTOR * blockSize)
                    .acquireTimeout(Duration.ofSeconds(15)).build();
            SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build();
            Sequence orders = registry.sequence("orders");

            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong errors = new AtomicLong();
            CountDownLatch firstValues = new CountDownLatch(threads);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Path file = outputDir.resolve("jvm" + jvm + "-thread" + t + ".bin");
                Thread worker = new Thread(() -> {
                    try (OutputStream out = new FileOutputStream(file.toFile())) {
                        byte[] record = new byte[Long.BYTES];
                        ByteBuffer buffer = ByteBuffer.wrap(record);
                        while (!stop.get()) {
                            try {
                                if (strategy == Strategy.SYNC) {
                                    commitOne(pool, orders, valuesTable, jvm);
                                } else {
                                    buffer.putLong(0, orders.next());
                                    out.write(record);
                                }
                            } catch (Exception e) {
                                errors.incrementAndGet();
                                System.err.println("jvm " + jvm + ": " + e);
                            }
                            firstValues.countDown();
                            LockSupport.parkNanos(pauseNanos);
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                        e.printStackTrace();
                    }
                }, "generator-" + t);
                workers.add(worker);
                worker.start();
            }
            firstValues.await();
            System.out.println("READY");
            System.out.flush();

            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null && !line.equals("STOP"); line = in.readLine()) {
                // wait for STOP
            }
            stop.set(true);
            for (Thread worker : workers) {
                worker.join();
            }
            registry.close();
            System.out.println("STATS issued=" + orders.stats().issued() + " discarded=" + orders.stats().discarded()
                    + " reservations=" + orders.stats().reservations() + " errors=" + errors.get());
            System.out.flush();
        }
    }

    private static void commitOne(HikariDataSource pool, Sequence orders, String valuesTable, int jvm) throws Exception {
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO " + valuesTable + " (v, jvm) VALUES (?, ?)")) {
                insert.setLong(1, orders.nextInTransaction(connection));
                insert.setInt(2, jvm);
                insert.executeUpdate();
                connection.commit();
            } catch (Exception e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }
}
