package dev.seqgen.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.jmh.bulk.IdKind;
import dev.seqgen.jmh.datajdbc.SaveAllFixture.IdSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each benchmark sets up, runs a few operations and tears down with its default parameters; no timing. */
class BenchmarkSetupTest {

    /** Two instances of each fleet source on one instant row: started, then 5,000 values each, none twice. */
    @ParameterizedTest
    @EnumSource(FleetBenchmark.Source.class)
    void fleetInstancesShareTheRowWithoutHandingOutAValueTwice(FleetBenchmark.Source source) {
        FleetBenchmark.SimulatedRow row = new FleetBenchmark.SimulatedRow(0);
        ExecutorService background = Executors.newCachedThreadPool();
        List<FleetBenchmark.Instance> instances = new ArrayList<>();
        try {
            Set<Long> values = new HashSet<>();
            for (int i = 0; i < 2; i++) {
                FleetBenchmark.Instance instance = FleetBenchmark.instance(source, row, background,
                        Duration.ofSeconds(FleetBenchmark.STARTER_WARM_UP_BOUND_SECONDS), i);
                instances.add(instance);
                assertThat(instance.start()).as("first values in hand").isTrue();
            }
            for (int n = 0; n < 5_000; n++) {
                for (FleetBenchmark.Instance instance : instances) {
                    assertThat(values.add(instance.next())).as("a value handed out once").isTrue();
                }
            }
            assertThat(row.transactions.sum()).as("reservations on the row").isPositive();
        } finally {
            instances.forEach(FleetBenchmark.Instance::close);
            background.shutdownNow();
        }
    }

    /**
     * The simulated row's timeline tells a hand-off from idleness: a transaction whose end found a waiter queued (held
     * there by a latch until it was) hands the row on; the pause after, with nobody queued, is idle.
     */
    @Test
    void theStartUpTimelineTellsTheRowHandedOnFromTheRowIdle() throws Exception {
        FleetBenchmark.SimulatedRow row = new FleetBenchmark.SimulatedRow(0);
        long begin = System.nanoTime();
        CountDownLatch holding = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            awaitQuietly(holding);
            row.transaction(1);
        });
        waiter.start();
        // The first transaction holds the row until the waiter is queued behind it, whatever the machine's speed.
        row.transaction((waited, ahead, behind) -> {
            holding.countDown();
            while (row.queuedAt("orders") == 0) {
                Thread.onSpinWait();
            }
            return 1;
        });
        waiter.join();
        Thread.sleep(50);
        row.transaction(1);
        long readyAt = System.nanoTime();

        FleetBenchmark.Timeline timeline = row.timeline(begin, readyAt);

        assertThat(timeline.transactions()).isEqualTo(3);
        assertThat(timeline.idle()).as("the pause with nobody queued").isGreaterThanOrEqualTo(
                TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(timeline.longestIdle()).isEqualTo(timeline.idle());
        assertThat(timeline.handedOn()).as("the hand-off to the queued waiter").isPositive();
        assertThat(timeline.longestHandOff()).as("one hand-off").isEqualTo(timeline.handedOn());
        assertThat(timeline.before() + timeline.held() + timeline.handedOn() + timeline.idle() + timeline.after())
                .as("every moment counted once").isEqualTo(timeline.total()).isEqualTo(readyAt - begin);
        assertThat(row.timeline(begin, begin)).as("nothing ended by then").isNull();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @ParameterizedTest
    @EnumSource(IdSourceType.class)
    void nextValueBenchmarkRuns(IdSourceType source) {
        NextValueBenchmark benchmark = new NextValueBenchmark();
        benchmark.source = source;
        benchmark.blockSize = 1_000_000;
        benchmark.hibernateIncrementSize = 1000;
        benchmark.setUp();
        try {
            if (source == IdSourceType.NONE) {
                assertThat(benchmark.next()).isZero();
                return;
            }
            assertThat(benchmark.next()).isNotEqualTo(benchmark.next());
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @EnumSource(value = IdSourceType.class,
            names = {"ATOMIC_LONG", "ATOMIC_LONG_BIT_REVERSED", "SEQGEN_ASYNC_BATCH", "SEQGEN_ASYNC_BATCH_BIT_REVERSED"})
    void keyOrderBenchmarkRuns(IdSourceType source) {
        KeyOrderBenchmark benchmark = new KeyOrderBenchmark();
        benchmark.source = source;
        benchmark.blockSize = 1_000_000;
        benchmark.setUp();
        try {
            long returned = benchmark.returned();
            benchmark.stored();
            assertThat(benchmark.id).isNotEqualTo(returned).isPositive();
            assertThat(returned).isPositive();
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @EnumSource(value = IdSourceType.class,
            names = {"NONE", "SEQGEN_ASYNC_BATCH", "HIBERNATE_POOLED", "SEQGEN_POOLED_OPTIMIZER", "SEQGEN_BATCH",
                "SEQGEN_ASYNC"})
    void refillStallBenchmarkRuns(IdSourceType source) {
        RefillStallBenchmark benchmark = new RefillStallBenchmark();
        benchmark.source = source;
        benchmark.idsPerSecond = 100_000;
        benchmark.storeLatencyMillis = 1;
        benchmark.blockSize = 10;
        benchmark.lowWatermark = -1;
        benchmark.setUp();
        try {
            long previous = 0;
            for (int i = 0; i < 25; i++) {
                long id = benchmark.workThenId();
                if (source == IdSourceType.NONE) {
                    assertThat(id).isZero();
                } else {
                    assertThat(id).isGreaterThan(previous);
                    previous = id;
                }
            }
        } finally {
            benchmark.tearDown();
        }
    }

    @org.junit.jupiter.api.Test
    void refillStallMatrixReportsEachRowAgainstTheWorkAloneOfItsCell() {
        List<RefillStallMatrix.Row> rows = List.of(
                new RefillStallMatrix.Row("NONE", 100_000, 5, 1000, new double[] {20.0, 26.0, 142.0, 4000.0}, 9000.0),
                new RefillStallMatrix.Row("SEQGEN_ASYNC_BATCH", 100_000, 5, 1000,
                        new double[] {20.1, 27.0, 170.5, 4100.0}, 9100.0),
                new RefillStallMatrix.Row("HIBERNATE_POOLED", 100_000, 5, 1000,
                        new double[] {20.1, 29.0, 5100.0, 6700.0}, 7000.0));

        String table = RefillStallMatrix.table(rows);

        assertThat(table.lines()).hasSize(2 + 3);
        assertThat(table).contains("| 100,000 | 5 | `NONE` | 1,000 | 20.0 | 26.0 | 142 | 4,000 | 9,000 | — |")
                .contains("| 100,000 | 5 | `SEQGEN_ASYNC_BATCH` | 1,000 | 20.1 | 27.0 | 171 | 4,100 | 9,100 | 28.5 |")
                .contains("`HIBERNATE_POOLED` | 1,000 | 20.1 | 29.0 | 5,100 | 6,700 | 7,000 | 4,958 |");
    }

    @ParameterizedTest(name = "{0} on H2")
    @EnumSource(IdKind.class)
    void bulkInsertBenchmarkRunsOnH2(IdKind idKind) {
        BulkInsertBenchmark benchmark = new BulkInsertBenchmark();
        benchmark.database = "h2";
        benchmark.idKind = idKind;
        benchmark.setUp();
        try {
            benchmark.emptyTable();
            Object first = benchmark.insert();
            Object second = benchmark.insert();
            assertThat(first).isNotNull().isNotEqualTo(second);
            assertThat(benchmark.fixture.rows()).isEqualTo(2L * BulkInsertBenchmark.ENTITIES_PER_TRANSACTION);
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest(name = "{0} on H2")
    @EnumSource(IdSource.class)
    void dataJdbcSaveAllBenchmarkRunsOnH2AndCountsSequenceRoundTrips(IdSource idSource) {
        DataJdbcSaveAllBenchmark benchmark = new DataJdbcSaveAllBenchmark();
        benchmark.database = "h2";
        benchmark.idSource = idSource;
        benchmark.storeLatencyMillis = 0;
        benchmark.setUp();
        try {
            benchmark.startCounting();
            long first = benchmark.saveAll();
            long second = benchmark.saveAll();
            assertThat(second).isGreaterThan(first);
            assertThat(benchmark.fixture.rowsAndDistinctIds())
                    .containsExactly(2L * DataJdbcSaveAllBenchmark.AGGREGATES_PER_CALL,
                            2L * DataJdbcSaveAllBenchmark.AGGREGATES_PER_CALL);
            long roundTrips = benchmark.fixture.roundTrips();
            if (idSource == IdSource.SPRING_DATA_SEQUENCE) {
                assertThat(roundTrips).as("one nextval per aggregate, the set-up's call included")
                        .isEqualTo(3L * DataJdbcSaveAllBenchmark.AGGREGATES_PER_CALL);
            } else {
                assertThat(roundTrips).as("a few block reservations").isPositive().isLessThan(10);
            }
        } finally {
            benchmark.tearDown();
        }
    }
}
