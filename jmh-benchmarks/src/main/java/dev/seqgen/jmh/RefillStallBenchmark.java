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

/**
 * Refill stalls: the distribution of {@code next()} latency (JMH sample time: p50 … p99.99, max) when every
 * reservation takes {@code storeLatencyMillis} (default 5 ms), for seqgen's strategies and Hibernate's
 * pooled optimizer over the same slow {@link StubSequenceStore}.
 *
 * <p>Workload: one thread takes an id, then works for {@code thinkMicros} (default 20 µs, a busy spin in a
 * per-invocation setup, which JMH leaves out of the timing), and again. That is 50,000 ids a second: a block
 * of 1000 lasts 20 ms, and the 500 values below ASYNC_BATCH's low watermark last 10 ms, twice the 5 ms a
 * refill takes, so the background refill is in time as long as its thread gets a core within 5 ms of waking.
 * (A caller that never pauses empties any block faster than a 5 ms store can refill it, and then every
 * strategy waits.) After every iteration, seqgen's rows print how many callers had to wait for a reservation.
 *
 * <p>BATCH and Hibernate pooled ({@code hibernateIncrementSize} = {@code blockSize} = 1000) stall the caller
 * for one reservation every 1000 values, 0.1 % of the calls: it shows from p99.9 on. SEQGEN_POOLED_OPTIMIZER
 * fetches ahead on the caller that reaches its trigger, which keeps other threads going but stalls that
 * caller, so with one thread it stalls as pooled does. SEQGEN_ASYNC pays the store latency on every call.
 * ATOMIC_LONG never waits for anything: its tail is the machine's own (preemption, safepoints, timer
 * resolution), the floor under every other row.
 *
 * <p>Target (issue 6): ASYNC_BATCH p99.99 below 50 µs while Hibernate pooled shows the store latency.
 *
 * <pre>{@code
 * java -jar jmh-benchmarks/target/benchmarks.jar RefillStallBenchmark
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RefillStallBenchmark {

    @Param({"ATOMIC_LONG", "SEQGEN_ASYNC_BATCH", "SEQGEN_BATCH", "HIBERNATE_POOLED", "SEQGEN_POOLED_OPTIMIZER",
            "SEQGEN_ASYNC"})
    IdSourceType source;

    /** How long each reservation (seqgen's and Hibernate's) takes. */
    @Param("5")
    int storeLatencyMillis;

    /** seqgen's block size and Hibernate's allocation size. */
    @Param("1000")
    int blockSize;

    /** The number of values left in the block when ASYNC_BATCH starts its background refill. */
    @Param("500")
    int lowWatermark;

    IdSource ids;

    /** The caller's work between two ids. */
    @State(Scope.Thread)
    public static class Caller {

        /** How long the caller works between two ids. */
        @Param("20")
        int thinkMicros;

        long thinkNanos;

        @Setup
        public void setUp() {
            thinkNanos = TimeUnit.MICROSECONDS.toNanos(thinkMicros);
        }

        /** Spins rather than parks, so the caller keeps its core and its caches as a busy application does. */
        @Setup(Level.Invocation)
        public void think() {
            long until = System.nanoTime() + thinkNanos;
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
        }
    }

    @Setup
    public void setUp() {
        StubSequenceStore store = StubSequenceStore.withLatency(Duration.ofMillis(storeLatencyMillis));
        ids = source.create(new IdSourceType.Config(store, blockSize, lowWatermark, blockSize));
        ids.next();
    }

    /**
     * Prints, for seqgen, its counters so far after every iteration: a caller wait that appears during the
     * measured iterations is a refill that came too late; the one wait before the first iteration is the
     * setup's first call.
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

    @Benchmark
    public long next(Caller caller) {
        return ids.next();
    }
}
