package dev.seqgen.testing.conformance;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceUnavailableException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.stream.LongStream;

/** Callers of one sequence that take values as fast as they can until it is closed under them. */
final class Callers {

    final Queue<long[]> values = new ConcurrentLinkedQueue<>();
    final Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
    final Queue<String> endings = new ConcurrentLinkedQueue<>();
    private final List<Future<?>> running = new ArrayList<>();
    volatile long closeReturnedAt = Long.MAX_VALUE;

    /** Starts threads that take one value or a few at a time with {@code take(sequence, count)}. */
    void start(ExecutorService pool, int threads, Sequence sequence, BiFunction<Sequence, Integer, long[]> take,
            CountDownLatch go) {
        for (int t = 0; t < threads; t++) {
            running.add(pool.submit(() -> {
                go.await();
                LongStream.Builder mine = LongStream.builder();
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try {
                    for (;;) {
                        long callStart = System.nanoTime();
                        long[] got = take.apply(sequence, random.nextBoolean() ? 1 : 1 + random.nextInt(5));
                        if (callStart - closeReturnedAt > 0) {
                            unexpected.add(new AssertionError("a call begun after close() returned got values"));
                        }
                        Arrays.stream(got).forEach(mine);
                    }
                } catch (SequenceUnavailableException e) {
                    endings.add(e.getMessage());
                } catch (Throwable e) {
                    unexpected.add(e);
                }
                values.add(mine.build().toArray());
                return null;
            }));
        }
    }

    long[] awaitAll() throws Exception {
        for (Future<?> future : running) {
            future.get(60, TimeUnit.SECONDS);
        }
        return values.stream().flatMapToLong(Arrays::stream).toArray();
    }
}
