package dev.seqgen.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.jmh.bulk.IdKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each benchmark sets up, runs a few operations and tears down with its default parameters; no timing. */
class BenchmarkSetupTest {

    @ParameterizedTest
    @EnumSource(IdSourceType.class)
    void nextValueBenchmarkRuns(IdSourceType source) {
        NextValueBenchmark benchmark = new NextValueBenchmark();
        benchmark.source = source;
        benchmark.blockSize = 1_000_000;
        benchmark.hibernateIncrementSize = 1000;
        benchmark.setUp();
        try {
            assertThat(benchmark.next()).isNotEqualTo(benchmark.next());
        } finally {
            benchmark.tearDown();
        }
    }

    @ParameterizedTest
    @EnumSource(value = IdSourceType.class,
            names = {"ATOMIC_LONG", "SEQGEN_ASYNC_BATCH", "SEQGEN_BATCH", "HIBERNATE_POOLED", "SEQGEN_POOLED_OPTIMIZER",
                "SEQGEN_ASYNC"})
    void refillStallBenchmarkRuns(IdSourceType source) {
        RefillStallBenchmark benchmark = new RefillStallBenchmark();
        benchmark.source = source;
        benchmark.storeLatencyMillis = 1;
        benchmark.blockSize = 10;
        benchmark.lowWatermark = 5;
        RefillStallBenchmark.Caller caller = new RefillStallBenchmark.Caller();
        caller.thinkMicros = 20;
        caller.setUp();
        benchmark.setUp();
        try {
            long previous = 0;
            for (int i = 0; i < 25; i++) {
                caller.think();
                long id = benchmark.next(caller);
                assertThat(id).isGreaterThan(previous);
                previous = id;
            }
        } finally {
            benchmark.tearDown();
        }
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
}
