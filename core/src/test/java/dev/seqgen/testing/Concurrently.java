package dev.seqgen.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs value-taking tasks on many threads at once and checks what they took. */
public final class Concurrently {

    /**
     * Starts each task on a new daemon thread of its own. A test's background task (a caller held at a gate, a
     * reader waiting for writers) runs here, never on {@code CompletableFuture}'s default executor: that is the
     * JVM-wide common fork-join pool (on JDK 25 even when its parallelism is 1), where one task blocked by a test
     * that failed starves every later test's task of the whole run. A daemon thread left blocked by a failed test
     * holds nothing another test needs, and does not keep the JVM alive.
     */
    public static final Executor OWN_THREAD = task -> {
        Thread thread = new Thread(task, "seqgen-test-task");
        thread.setDaemon(true);
        thread.start();
    };

    private Concurrently() {
    }

    /** Takes values in a thread; returns them. */
    @FunctionalInterface
    public interface Taker {
        long[] take(int thread) throws Exception;
    }

    /**
     * Starts all tasks at the same moment, waits for them (failing on any error) and returns all values. When one
     * task fails, the others are interrupted and waited for before the error is thrown: no task outlives the test
     * and holds a transaction open into the next one (on HSQLDB, whose DDL waits for every open transaction, such
     * a leftover made the next test's {@code DROP TABLE} wait for ever).
     */
    public static long[] run(int threads, Taker taker) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            // Results are taken in the order the tasks end, so the first failure is seen at once, not after the
            // tasks submitted before it.
            CompletionService<long[]> tasks = new ExecutorCompletionService<>(pool);
            for (int t = 0; t < threads; t++) {
                int thread = t;
                tasks.submit(() -> {
                    start.await();
                    return taker.take(thread);
                });
            }
            start.countDown();
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            List<long[]> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Future<long[]> done = tasks.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                if (done == null) {
                    throw new AssertionError((threads - t) + " of " + threads + " tasks still run after 10 minutes");
                }
                results.add(done.get());
            }
            return results.stream().flatMapToLong(Arrays::stream).toArray();
        } catch (Exception | Error e) {
            pool.shutdownNow();
            if (!pool.awaitTermination(2, TimeUnit.MINUTES)) {
                e.addSuppressed(new AssertionError("the other tasks still run 2 minutes after being interrupted"));
            }
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Asserts that no value occurs twice, and returns the values sorted. */
    public static long[] assertUnique(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) {
                throw new AssertionError("value " + sorted[i] + " was issued twice (of " + sorted.length + " values)");
            }
        }
        assertThat(sorted).hasSize(values.length);
        return sorted;
    }

    /** Asserts that the sorted values are exactly {@code first, first + 1, ..., first + n - 1}. */
    public static void assertContiguousFrom(long first, long[] sorted) {
        for (int i = 0; i < sorted.length; i++) {
            if (sorted[i] != first + i) {
                throw new AssertionError("expected " + (first + i) + " at position " + i + " but found " + sorted[i]
                        + ": a gap or a duplicate among " + sorted.length + " values");
            }
        }
    }
}
