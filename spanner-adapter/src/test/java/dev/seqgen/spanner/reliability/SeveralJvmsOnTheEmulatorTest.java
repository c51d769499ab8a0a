package dev.seqgen.spanner.reliability;

import dev.seqgen.testing.Slow;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.ChildJvm;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three generator JVMs ({@link SpannerGeneratorMain}) of four threads each take values of one sequence on one
 * row of the Spanner emulator; one is killed ({@code destroyForcibly}, SIGKILL) mid-run and a replacement
 * starts; the survivors stop cleanly. Then, over every value written to the JVMs' files: no value twice, none
 * at or above the row's final {@code next_value}, and what is missing below it, less what the survivors
 * counted as discarded, is the killed JVM's loss: at most a block plus a value in flight per thread for BATCH,
 * two blocks (in hand and prefetched) plus those for ASYNC_BATCH, a value in flight per thread for ASYNC.
 */
@Slow
@DisplayName("several JVMs on spanner-emulator")
class SeveralJvmsOnTheEmulatorTest {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator(
            "CREATE TABLE seqgen_sequences (name STRING(64) NOT NULL, next_value INT64 NOT NULL) PRIMARY KEY (name)",
            "CREATE TABLE seqgen_sequences_kept (name STRING(64) NOT NULL, range_start INT64 NOT NULL,"
                    + " range_end INT64 NOT NULL) PRIMARY KEY (name, range_start)");

    private static final int JVMS = 3;
    private static final int THREADS = 4;
    private static final int BLOCK_SIZE = 50;
    /** ASYNC_BATCH adapts its block by default: it may grow to this many times the block size. */
    static final int MAX_BLOCK_FACTOR = 4;
    /** How far the JVMs move the row forward in each phase (before the kill, after the replacement started). */
    private static final long PROGRESS = 2 * BLOCK_SIZE;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC_BATCH", "ASYNC"})
    @DisplayName("spanner-emulator: 3 JVMs x 4 threads, one killed mid-run and replaced: no value twice, only the"
            + " killed JVM's values lost, at most its blocks and values in flight")
    void noValueTwiceAndOnlyTheKilledJvmsValuesLost(Strategy strategy) throws Exception {
        String sequence = "orders-" + strategy.name().toLowerCase();
        // Each value of ASYNC is a read-write transaction, which the emulator runs one at a time: few values.
        int pauseMicros = strategy == Strategy.ASYNC ? 30_000 : 2_000;
        // The JVM to be killed is slower, so that it holds part of a block most of the time.
        int killedPauseMicros = strategy == Strategy.ASYNC ? 30_000 : 10_000;
        Path dir = Files.createTempDirectory("seqgen-spanner-jvms");
        long started = System.nanoTime();
        List<ChildJvm> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < JVMS; i++) {
                jvms.add(start(strategy, sequence, dir, i, i == 0 ? killedPauseMicros : pauseMicros));
            }
            for (ChildJvm jvm : jvms) {
                jvm.awaitLine("READY", 60_000);
            }
            awaitProgress(sequence);
            ChildJvm killed = jvms.get(0);
            killed.kill();

            ChildJvm replacement = start(strategy, sequence, dir, JVMS, pauseMicros);
            jvms.add(replacement);
            replacement.awaitLine("READY", 60_000);
            awaitProgress(sequence);

            List<ChildJvm> survivors = jvms.subList(1, jvms.size());
            for (ChildJvm survivor : survivors) {
                survivor.send("STOP");
            }
            long survivorsIssued = 0;
            long survivorsDiscarded = 0;
            for (ChildJvm survivor : survivors) {
                Map<String, Long> stats = parseStats(survivor.awaitLine("STATS", 60_000));
                assertThat(survivor.awaitExit(30_000)).as("exit code of " + survivor.name()).isZero();
                assertThat(stats.get("errors")).as("errors in " + survivor.name()).isZero();
                survivorsIssued += stats.get("issued");
                survivorsDiscarded += stats.get("discarded");
            }

            long[] killedValues = valuesIn(dir, "jvm0-");
            long[] sorted = Concurrently.assertUnique(valuesIn(dir, "jvm"));
            long finalNext = emulator.store("seqgen_sequences").nextValue(sequence).orElseThrow();
            long gaps = finalNext - 1 - sorted.length;
            long survivorsKept = emulator.store("seqgen_sequences").keptRanges(sequence).stream()
                    .mapToLong(ReservedRange::count).sum();
            long killedJvmLoss = gaps - survivorsDiscarded - survivorsKept;
            System.out.printf("spanner-emulator %s: %,d values from %d JVMs (%,d by the killed one) in %d ms,"
                            + " next_value %,d, gaps %,d = %,d discarded by survivors + %,d kept for the fleet by"
                            + " survivors + %,d lost by the killed JVM%n",
                    strategy, sorted.length, jvms.size(), killedValues.length,
                    (System.nanoTime() - started) / 1_000_000, finalNext, gaps, survivorsDiscarded, survivorsKept,
                    killedJvmLoss);

            assertThat(killedValues).as("values written by the killed JVM before the kill").isNotEmpty();
            assertThat(sorted[0]).isGreaterThanOrEqualTo(1);
            assertThat(sorted[sorted.length - 1]).as("highest value written").isLessThan(finalNext);
            assertThat((long) sorted.length - killedValues.length).as("values written by the survivors")
                    .isEqualTo(survivorsIssued);
            assertThat(killedJvmLoss).as("the killed JVM's loss").isNotNegative();
            long bound = switch (strategy) {
                case ASYNC -> THREADS;
                case BATCH -> BLOCK_SIZE + THREADS;
                case ASYNC_BATCH -> 2L * MAX_BLOCK_FACTOR * BLOCK_SIZE + THREADS;
                case SYNC -> 0;
            };
            assertThat(killedJvmLoss).as("the killed JVM's loss, at most " + bound).isLessThanOrEqualTo(bound);
            if (strategy == Strategy.ASYNC) {
                assertThat(survivorsDiscarded).isZero();
            }
            deleteQuietly(dir); // kept, with each JVM's stderr, when the test fails
        } finally {
            jvms.forEach(ChildJvm::close);
        }
    }

    private static ChildJvm start(Strategy strategy, String sequence, Path dir, int id, int pauseMicros)
            throws IOException {
        List<String> args = List.of(strategy.name(), String.valueOf(BLOCK_SIZE), SpannerEmulator.PROJECT, emulator.instanceId(),
                emulator.databaseId(), "seqgen_sequences", sequence, dir.toString(), String.valueOf(id),
                String.valueOf(THREADS), String.valueOf(pauseMicros));
        Map<String, String> environment = Map.of("SPANNER_EMULATOR_HOST", emulator.host(),
                "GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS", "false",
                "GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW", "false");
        return ChildJvm.start("jvm" + id, SpannerGeneratorMain.class, args, environment,
                dir.resolve("jvm" + id + ".stderr"));
    }

    private static final Pattern STAT = Pattern.compile("(\\w+)=(-?\\d+)");

    private static Map<String, Long> parseStats(String line) {
        Map<String, Long> stats = new HashMap<>();
        Matcher m = STAT.matcher(line);
        while (m.find()) {
            stats.put(m.group(1), Long.parseLong(m.group(2)));
        }
        return stats;
    }

    /** Every complete 8-byte record of the files whose names start with {@code prefix}. */
    private static long[] valuesIn(Path dir, String prefix) throws IOException {
        LongStream.Builder values = LongStream.builder();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && f.toString().endsWith(".bin")).toList()) {
                ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
                while (bytes.remaining() >= Long.BYTES) {
                    values.add(bytes.getLong());
                }
            }
        }
        return values.build().toArray();
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory
        }
    }

    /**
     * Waits until the generators have moved the row {@link #PROGRESS} values forward from where it is now: they are
     * mid-run, however slowly the machine runs them.
     */
    private void awaitProgress(String sequence) {
        SequenceStore store = emulator.store("seqgen_sequences");
        long from = store.nextValue(sequence).orElse(1);
        await().atMost(Duration.ofMinutes(3)).until(() -> store.nextValue(sequence).orElse(1) >= from + PROGRESS);
    }
}
