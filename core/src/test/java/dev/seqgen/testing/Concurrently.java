package dev.seqgen.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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

    /** Starts all tasks at the same moment, waits for them (failing on any error) and returns all values. */
    public static long[] run(int threads, Taker taker) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    start.await();
                    return taker.take(thread);
                }));
            }
            start.countDown();
            List<long[]> results = new ArrayList<>();
            for (Future<long[]> future : futures) {
                results.add(future.get(10, TimeUnit.MINUTES));
            }
            return results.stream().flatMapToLong(Arrays::stream).toArray();
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
