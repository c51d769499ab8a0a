package dev.seqgen.reliability;

import dev.seqgen.testing.Slow;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.ChildJvm;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Four generator JVMs ({@link GeneratorProcess}) of eight threads each take values of one sequence on one
 * PostgreSQL or MariaDB row; one JVM is killed with {@code kill -9} mid-run and a replacement starts; the
 * survivors stop cleanly. Then, on every value the JVMs made durable:
 *
 * <ul>
 *   <li>no value twice, and none at or above the row's final {@code next_value};
 *   <li>SYNC: the committed values are exactly 1..n and {@code next_value} is n + 1: the killed JVM's open
 *       transaction rolled back with its increment;
 *   <li>ASYNC: the only gaps are the killed JVM's values in flight, at most one per thread;
 *   <li>BATCH: what the survivors did not give back is kept for the fleet or in their {@code discarded} counters;
 *       what is left, the
 *       killed JVM's loss, is at most one block plus one in-flight value per thread;
 *   <li>ASYNC_BATCH: likewise, at most two blocks (the one in hand and the prefetched one) plus the in-flight
 *       values.
 * </ul>
 */
@Slow
class KilledJvmTest {

    private static final int JVMS = 4;
    private static final int THREADS = 8;
    private static final int BLOCK_SIZE = 50;
    /** ASYNC_BATCH adapts its block by default: it may grow to this many times the block size. */
    static final int MAX_BLOCK_FACTOR = 4;
    /** How far the JVMs move the row forward in each phase (before the kill, after the replacement started). */
    private static final long PROGRESS = 4 * BLOCK_SIZE;
    /** Each thread's pause between values, as an application has between orders. */
    private static final int PAUSE_MICROS = 300;
    /**
     * The pause in the JVM that will be killed: slow enough that it holds part of a block most of the time, so
     * that the kill usually costs something and the bound is put to the test.
     */
    private static final int KILLED_JVM_PAUSE_MICROS = 2_000;

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    static Stream<Arguments> serversAndStrategies() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB)
                .flatMap(db -> Stream.of(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    static Stream<Arguments> serversAndNativeStrategies() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB).flatMap(db -> Stream.of(Strategy.ASYNC,
                Strategy.BATCH, Strategy.ASYNC_BATCH).map(s -> Arguments.of(db, s)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serversAndStrategies")
    void noValueTwiceAndOnlyTheKilledJvmsValuesLostWhenOneOfFourJvmsIsKilled(TestDatabase database,
            Strategy strategy) throws Exception {
        killOneOfFourJvms(database, strategy, false);
    }

    /** The same on the native-sequence store, where nothing is given back: the survivors discard their tails. */
    @ParameterizedTest(name = "{0} {1} native sequence")
    @MethodSource("serversAndNativeStrategies")
    void noValueTwiceAndOnlyTheKilledJvmsValuesLostWhenOneOfFourJvmsIsKilledOnTheNativeSequenceStore(
            TestDatabase database, Strategy strategy) throws Exception {
        killOneOfFourJvms(database, strategy, true);
    }

    private void killOneOfFourJvms(TestDatabase database, Strategy strategy, boolean nativeStore) throws Exception {
        DatabaseServer server = DatabaseServer.of(database);
        String unique = TestDatabase.uniqueTable();
        // GeneratorProcess reads "native:<prefix>" as the native-sequence store with that prefix.
        String table = nativeStore ? GeneratorProcess.NATIVE + unique + "_" : unique;
        String valuesTable = TestDatabase.uniqueTable();
        SequenceStore store = nativeStore
                ? NativeSequenceStore.builder(database.dataSource()).prefix(unique + "_").build()
                : JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        cleanups.add(() -> {
            if (nativeStore) {
                database.execute("DROP SEQUENCE IF EXISTS "
                        + (database == TestDatabase.MARIADB ? "`" + unique + "_orders`" : "\"" + unique + "_orders\""));
            } else {
                database.dropTable(table);
            }
        });
        cleanups.add(() -> database.dropTable(valuesTable));
        database.execute("CREATE TABLE " + valuesTable + " (v BIGINT NOT NULL PRIMARY KEY, jvm INT NOT NULL)");
        Path dir = Files.createTempDirectory("seqgen-jvms");
        Map<String, String> environment = Map.of("SEQGEN_CHILD_URL", server.url(), "SEQGEN_CHILD_USER", server.user(),
                "SEQGEN_CHILD_PASSWORD", server.password());

        long started = System.nanoTime();
        List<ChildJvm> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < JVMS; i++) {
                jvms.add(startGenerator(strategy, table, valuesTable, dir, i, environment));
            }
            for (ChildJvm jvm : jvms) {
                jvm.awaitLine("READY", 30_000);
            }
            awaitProgress(store);
            assertThat(jvms.get(0).kill()).as("exit code of kill -9").isEqualTo(137);

            ChildJvm replacement = startGenerator(strategy, table, valuesTable, dir, JVMS, environment);
            jvms.add(replacement);
            replacement.awaitLine("READY", 30_000);
            awaitProgress(store);

            long survivorsIssued = 0;
            long survivorsDiscarded = 0;
            for (ChildJvm survivor : jvms.subList(1, jvms.size())) {
                survivor.send("STOP");
            }
            for (ChildJvm survivor : jvms.subList(1, jvms.size())) {
                Map<String, Long> stats = parseStats(survivor.awaitLine("STATS", 30_000));
                assertThat(survivor.awaitExit(30_000)).isZero();
                assertThat(stats.get("errors")).as("errors in a surviving JVM").isZero();
                survivorsIssued += stats.get("issued");
                survivorsDiscarded += stats.get("discarded");
            }

            long[] values = strategy == Strategy.SYNC ? committedValues(database, valuesTable) : writtenValues(dir);
            long[] sorted = Concurrently.assertUnique(values);
            long finalNext = store.nextValue("orders").orElseThrow();
            assertThat(sorted[sorted.length - 1]).isLessThan(finalNext);
            long gaps = finalNext - 1 - sorted.length;
            long survivorsKept = store.keptRanges("orders").stream().mapToLong(ReservedRange::count).sum();
            long killedJvmLoss = gaps - survivorsDiscarded - survivorsKept;
            System.out.printf("%s %s: %,d values from %d JVMs in %d ms, next_value %,d, gaps %,d = %,d discarded by"
                            + " survivors + %,d kept for the fleet by survivors + %,d lost by the killed JVM (files in"
                            + " %s)%n", database, strategy, sorted.length, jvms.size(),
                    (System.nanoTime() - started) / 1_000_000, finalNext, gaps, survivorsDiscarded, survivorsKept,
                    killedJvmLoss, dir);

            assertThat(killedJvmLoss).isNotNegative();
            switch (strategy) {
                case SYNC -> {
                    Concurrently.assertContiguousFrom(1, sorted);
                    assertThat(finalNext).isEqualTo(sorted.length + 1);
                }
                case ASYNC -> {
                    assertThat(survivorsDiscarded).isZero();
                    assertThat(killedJvmLoss).as("values in flight in the killed JVM").isLessThanOrEqualTo(THREADS);
                }
                case BATCH -> assertThat(killedJvmLoss).as("one block and the values in flight")
                        .isLessThanOrEqualTo(BLOCK_SIZE + THREADS);
                case ASYNC_BATCH -> assertThat(killedJvmLoss).as("block in hand, prefetched block, values in flight,"
                        + " each block at most the adaptive maximum").isLessThanOrEqualTo(
                                2 * MAX_BLOCK_FACTOR * BLOCK_SIZE + THREADS);
            }
            deleteQuietly(dir); // kept, with each JVM's stderr, when the test fails
            if (strategy != Strategy.SYNC) {
                assertThat((long) sorted.length).as("values written by the survivors").isGreaterThanOrEqualTo(survivorsIssued);
            }
        } finally {
            jvms.forEach(ChildJvm::close);
        }
    }

    private static ChildJvm startGenerator(Strategy strategy, String table, String valuesTable, Path dir, int id,
            Map<String, String> environment) throws IOException {
        return ChildJvm.start("generator-" + id, GeneratorProcess.class,
                List.of(strategy.name(), String.valueOf(BLOCK_SIZE), table, valuesTable, dir.toString(),
                        String.valueOf(id), String.valueOf(THREADS),
                        String.valueOf(id == 0 ? KILLED_JVM_PAUSE_MICROS : PAUSE_MICROS)),
                environment, dir.resolve("jvm" + id + ".stderr"));
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

    private static long[] committedValues(TestDatabase database, String valuesTable) throws Exception {
        LongList values = new LongList();
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT v FROM " + valuesTable)) {
            while (rs.next()) {
                values.add(rs.getLong(1));
            }
        }
        return values.toArray();
    }

    /** Every complete 8-byte record of every thread's file; a record cut short by the kill is not a value. */
    private static long[] writtenValues(Path dir) throws IOException {
        LongList values = new LongList();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".bin")).toList()) {
                ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
                while (bytes.remaining() >= Long.BYTES) {
                    values.add(bytes.getLong());
                }
            }
        }
        return values.toArray();
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
    private static void awaitProgress(SequenceStore store) {
        long from = store.nextValue("orders").orElse(1);
        await().atMost(Duration.ofMinutes(2)).until(() -> store.nextValue("orders").orElse(1) >= from + PROGRESS);
    }
}
