package dev.seqgen.spanner.reliability;

import com.google.cloud.NoCredentials;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.SessionPoolOptions;
import com.google.cloud.spanner.Spanner;
import com.google.cloud.spanner.SpannerOptions;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.SpannerSequenceStore;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One generator JVM of {@link SeveralJvmsOnTheEmulatorTest}: its threads take values of one sequence from a
 * {@link SpannerSequenceStore} on the emulator named by {@code SPANNER_EMULATOR_HOST}, and append each value to
 * the thread's own file with one {@code write} call before taking the next, so that a value is durable the
 * moment the call returns, even if the JVM is killed right after.
 *
 * <p>Arguments: {@code strategy blockSize project instance database table sequence outputDir jvmId threads
 * pauseMicros}. Protocol on stdout: {@code READY} once every thread has a value; on {@code STOP} (or end of
 * input) on stdin, the threads finish, the registry closes (giving back its tail when safe) and the JVM prints
 * {@code STATS issued=<n> discarded=<n> reservations=<n> errors=<n>} and exits 0.
 */
public final class SpannerGeneratorMain {

    private SpannerGeneratorMain() {
    }

    public static void main(String[] args) throws Exception {
        Strategy strategy = Strategy.valueOf(args[0]);
        int blockSize = Integer.parseInt(args[1]);
        DatabaseId database = DatabaseId.of(args[2], args[3], args[4]);
        String table = args[5];
        String sequenceName = args[6];
        Path outputDir = Path.of(args[7]);
        int jvm = Integer.parseInt(args[8]);
        int threads = Integer.parseInt(args[9]);
        long pauseNanos = Long.parseLong(args[10]) * 1_000;

        Spanner spanner = SpannerOptions.newBuilder()
                .setProjectId(database.getInstanceId().getProject())
                .setEmulatorHost(System.getenv("SPANNER_EMULATOR_HOST"))
                .setCredentials(NoCredentials.getInstance())
                .setSessionPoolOption(SessionPoolOptions.newBuilder().setMinSessions(threads + 2).build())
                .build()
                .getService();
        SpannerSequenceStore store = SpannerSequenceStore.builder(spanner.getDatabaseClient(database))
                .table(table)
                .operationTimeout(Duration.ofSeconds(30))
                .build();
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(blockSize)
                .lowWatermark(blockSize / 2).adaptiveMaxBlockSize(SeveralJvmsOnTheEmulatorTest.MAX_BLOCK_FACTOR * blockSize)
                .acquireTimeout(Duration.ofSeconds(30)).build();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build();
        Sequence sequence = registry.sequence(sequenceName);

        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong errors = new AtomicLong();
        CountDownLatch firstValues = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Path file = outputDir.resolve("jvm" + jvm + "-thread" + t + ".bin");
            Thread worker = new Thread(() -> {
                byte[] record = new byte[Long.BYTES];
                ByteBuffer buffer = ByteBuffer.wrap(record);
                try (OutputStream out = new FileOutputStream(file.toFile())) {
                    while (!stop.get()) {
                        try {
                            buffer.putLong(0, sequence.next());
                            out.write(record);
                        } catch (RuntimeException e) {
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
        System.out.println("STATS issued=" + sequence.stats().issued() + " discarded=" + sequence.stats().discarded()
                + " reservations=" + sequence.stats().reservations() + " errors=" + errors.get());
        System.out.flush();
        spanner.close();
        System.exit(0);
    }
}
