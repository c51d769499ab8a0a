package dev.seqgen.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The hot path: ids per microsecond from one source shared by all benchmark threads, seqgen with a block in
 * hand beside the alternatives.
 *
 * <p>Workload: every thread calls {@code next()} on the same source as fast as it can and returns the id.
 * seqgen's BATCH and ASYNC_BATCH take blocks of {@code blockSize} (default 1,000,000) values from an instant
 * {@link StubSequenceStore}, so a refill comes once per million values and the figure is the block-in-hand
 * path. Hibernate's optimizers refill every {@code hibernateIncrementSize} (default 1000) values from the
 * same instant store, which costs one compare-and-set, so their figure is their hot path too. SEQGEN_ASYNC
 * reserves every value from the instant store: its figure is seqgen's overhead per store round trip, not a
 * database's speed. SEQGEN_POOLED_OPTIMIZER is seqgen's lock-free drop-in for Hibernate's pooled optimizer,
 * over the same sequence as HIBERNATE_POOLED. SEQGEN_ASYNC_BATCH_BIT_REVERSED is ASYNC_BATCH handing out
 * bit-reversed keys: its distance to SEQGEN_ASYNC_BATCH is the cost of the mapping, and ATOMIC_LONG_BIT_REVERSED's
 * distance to ATOMIC_LONG is what the reversal alone costs on the JVM that runs it (a few instructions where the JIT
 * compiles {@code Long.reverse} to an intrinsic, a chain of shifts and masks where it does not). {@code ATOMIC_LONG}
 * is the limit; {@code UUID} is the key a user would pick instead.
 * No state is per thread: sharing one sequence is the point.
 *
 * <p>Targets (issue 6): BATCH and ASYNC_BATCH at least 0.67x ATOMIC_LONG at 1 and 2 threads, at least 2x
 * HIBERNATE_POOLED at 2 threads, 0 B/op in {@code -prof gc}.
 *
 * <pre>{@code
 * ./mvnw -B -pl jmh-benchmarks -am package -DskipTests
 * java -jar jmh-benchmarks/target/benchmarks.jar NextValueBenchmark -t 1 -prof gc
 * java -jar jmh-benchmarks/target/benchmarks.jar NextValueBenchmark -t 2 -prof gc
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class NextValueBenchmark {

    @Param({"ATOMIC_LONG", "ATOMIC_LONG_BIT_REVERSED", "SEQGEN_BATCH", "SEQGEN_ASYNC_BATCH",
            "SEQGEN_ASYNC_BATCH_BIT_REVERSED", "SEQGEN_ASYNC", "HIBERNATE_POOLED", "HIBERNATE_POOLED_LO",
            "HIBERNATE_POOLED_LO_THREAD_LOCAL", "SEQGEN_POOLED_OPTIMIZER", "UUID"})
    IdSourceType source;

    /** seqgen's block size: large, so that the block-in-hand path is what is measured. */
    @Param("1000000")
    int blockSize;

    /** Hibernate's allocation size, as a user would configure it. */
    @Param("1000")
    int hibernateIncrementSize;

    IdSource ids;

    @Setup
    public void setUp() {
        ids = source.create(new IdSourceType.Config(StubSequenceStore.instant(), blockSize, -1, hibernateIncrementSize));
        ids.next();
    }

    @TearDown
    public void tearDown() {
        ids.close();
    }

    @Benchmark
    public long next() {
        return ids.next();
    }
}
