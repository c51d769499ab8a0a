package dev.seqgen.jmh;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Refill stalls, as a matrix: consumption rate × store latency. Each operation is a fixed piece of application
 * work (a busy spin) followed by one id, on two threads, and its time is sampled (JMH sample time: p50 … p99.99,
 * max). The row {@code NONE} is the application's work alone, with no id: the floor of the same run, which every
 * other row is read against.
 *
 * <p>The work per operation is {@code threads / idsPerSecond}: 200 µs for 10,000 ids/s, 20 µs for 100,000 ids/s,
 * 2 µs for 1,000,000 ids/s (the rate is a target: what an operation costs beyond its work lowers it). Every
 * reservation of seqgen's and Hibernate's takes {@code storeLatencyMillis} on the same {@link StubSequenceStore}.
 *
 * <ul>
 *   <li>{@code SEQGEN_ASYNC_BATCH} runs on seqgen's <em>default settings</em> (block 1000, adaptive): its control
 *       loop has to find the refill point and block size for each cell itself.</li>
 *   <li>{@code HIBERNATE_POOLED} ({@code hibernateIncrementSize} = 1000) stalls every thread for one store round
 *       trip per 1000 ids; at 1,000,000 ids/s against 20 ms the store cannot even supply the rate that way.</li>
 *   <li>{@code SEQGEN_POOLED_OPTIMIZER} fetches the next block ahead on the thread that reaches a quarter of the
 *       block left: the other thread goes on, that one stalls.</li>
 * </ul>
 *
 * <p>After every iteration, seqgen's rows print their counters so far: callers that waited, late refills, the
 * block size and refill point the control loop chose. The warm-up iterations are where the loop settles; the
 * measured ones show where it settled.
 *
 * <pre>{@code
 * java -jar jmh-benchmarks/target/benchmarks.jar RefillStallBenchmark -f 1 -wi 3 -w 2s -i 3 -r 3s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(RefillStallBenchmark.THREADS)
public class RefillStallBenchmark {

    static final int THREADS = 2;

    @Param({"NONE", "SEQGEN_ASYNC_BATCH", "HIBERNATE_POOLED", "SEQGEN_POOLED_OPTIMIZER"})
    IdSourceType source;

    /** The rate the callers take ids at, all threads together. */
    @Param({"10000", "100000", "1000000"})
    int idsPerSecond;

    /** How long each reservation (seqgen's and Hibernate's) takes. */
    @Param({"1", "5", "20"})
    int storeLatencyMillis;

    /** seqgen's block size (its default) and Hibernate's allocation size. */
    @Param("1000")
    int blockSize;

    /** seqgen's low watermark; -1 for its default (adaptive). */
    @Param("-1")
    int lowWatermark;

    IdSource ids;
    long workNanos;

    @Setup
    public void setUp() {
        workNanos = TimeUnit.SECONDS.toNanos(THREADS) / idsPerSecond;
        StubSequenceStore store = StubSequenceStore.withLatency(Duration.ofMillis(storeLatencyMillis));
        ids = source.create(new IdSourceType.Config(store, blockSize, lowWatermark, blockSize));
        ids.next();
    }

    /**
     * Prints, for seqgen, its counters so far after every iteration: a caller wait or a late refill during the
     * measured iterations is a refill that came too late; the wait before the first iteration is the setup's
     * first call.
     */
    @TearDown(Level.Iteration)
    public void printActivity() {
        String activity = ids.activity();
        if (!activity.isEmpty()) {
            // JMH has already printed "Iteration N:" without its score; start a line of our own.
            System.out.println(System.lineSeparator() + source + " so far: " + activity);
        }
    }

    @TearDown
    public void tearDown() {
        ids.close();
    }

    /**
     * The application's work, then one id.
     *
     * @return the id, so that the JIT cannot drop the call
     */
    @Benchmark
    public long workThenId() {
        work(workNanos);
        return ids.next();
    }

    /** Spins rather than parks, so the caller keeps its core and its caches as a busy application does. */
    static void work(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }
}
