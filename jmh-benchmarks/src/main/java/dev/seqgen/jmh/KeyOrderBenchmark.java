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
 * What {@code key-order bit-reversed} costs per value at one thread, beside sequential values, for a caller that
 * returns the id and for one that stores it, as an application stores an id into its entity.
 *
 * <p>Sources: a bare {@code AtomicLong} with and without the reversal (the limit, and what the reversal alone
 * costs on the JVM that runs the benchmark), and seqgen's ASYNC_BATCH with a block in hand with and without it
 * (blocks of a million values from an instant store, as in {@link NextValueBenchmark}).
 *
 * <p>Why two callers: at one thread a value costs about one atomic add, a few nanoseconds, and whether the
 * instructions of the reversal after it cost anything depends on the code around the call as much as on the
 * instructions themselves (RESULTS.md, "What bit-reversed keys cost at one thread"). {@code returned} hands each id
 * to JMH, which consumes it without a store; {@code stored} is an application that stores each id, as into its
 * entity.
 *
 * <pre>{@code
 * ./mvnw -B -pl jmh-benchmarks -am package -DskipTests
 * java -jar jmh-benchmarks/target/benchmarks.jar KeyOrderBenchmark -t 1 -f 2 -wi 3 -w 2s -i 5 -r 2s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KeyOrderBenchmark {

    @Param({"ATOMIC_LONG", "ATOMIC_LONG_BIT_REVERSED", "SEQGEN_ASYNC_BATCH", "SEQGEN_ASYNC_BATCH_BIT_REVERSED"})
    IdSourceType source;

    /** seqgen's block size: large, so that the block-in-hand path is what is measured. */
    @Param("1000000")
    int blockSize;

    IdSource ids;

    /** Where {@link #stored()} puts each id: a plain field, as an entity's id. */
    long id;

    @Setup
    public void setUp() {
        ids = source.create(new IdSourceType.Config(StubSequenceStore.instant(), blockSize, -1, 1000));
        ids.next();
    }

    @TearDown
    public void tearDown() {
        ids.close();
    }

    /** The id is returned to JMH, which consumes it without a store. */
    @Benchmark
    public long returned() {
        return ids.next();
    }

    /** The id is stored into a field of this object before the next call. */
    @Benchmark
    public void stored() {
        id = ids.next();
    }
}
