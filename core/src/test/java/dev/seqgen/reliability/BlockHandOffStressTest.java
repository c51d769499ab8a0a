package dev.seqgen.reliability;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A long randomized stress of the block hand-off of BATCH and ASYNC_BATCH (see the design blocks of
 * {@code BlockSequence} and {@code AsyncBatchSequence}): sixteen threads take values with a random mix of
 * {@code next()} and {@code nextValues(k)}, k from 1 to 50, from blocks of 1 to 5 values, so that nearly every
 * call crosses a block boundary and bulk calls cross dozens at once; low watermarks from 0 to block size - 1,
 * adaptive sizing on or off; one to three generators on one row; a store with random latency and transient
 * failures, some of which happen after the commit; background refills delayed at random; in some rounds a
 * generator is closed mid-run and in others the maximum value is reached mid-run.
 *
 * <p>Every round checks: no value twice; each thread's values strictly increasing (one generator's blocks
 * are reserved in increasing order); the issued counters equal the values callers received; and every value
 * between the initial value and the row's final {@code next_value} was received, counted in
 * {@code stats().discarded()}, or lost to a failure whose outcome the caller could not know.
 *
 * <p>Runs {@value #DEFAULT_SECONDS} s per strategy; {@code -Dseqgen.stress.seconds=600} soaks longer, and
 * {@code -Dseqgen.stress.seed=N} replays the round configurations of a reported seed.
 */
class BlockHandOffStressTest {

    private static final long DEFAULT_SECONDS = 5;
    private static final int THREADS = 16;
    private static final int CALLS_PER_THREAD = 100;

    /** One round's random configuration. */
    private record Round(SequenceSettings settings, int generators, long maxLatencyNanos, double failureRate,
            boolean closeOneMidway, long closeAfterNanos) {

        static Round random(Strategy strategy, Random random) {
            int blockSize = 1 + random.nextInt(5);
            long initial = random.nextBoolean() ? 1 : random.nextLong(1L << 40);
            boolean adaptive = random.nextInt(3) == 0;
            SequenceSettings.Builder settings = SequenceSettings.builder().strategy(strategy).blockSize(blockSize)
                    .lowWatermark(random.nextInt(blockSize)).initialValue(initial)
                    .acquireTimeout(Duration.ofSeconds(20)).adaptive(adaptive)
                    .adaptiveMaxBlockSize(blockSize + random.nextInt(64))
                    .adaptiveTargetRefillInterval(Duration.ofNanos(50_000 + random.nextInt(5_000_000)));
            if (random.nextInt(5) == 0) {
                // The maximum is reached mid-round: about a third of what the threads would take.
                settings.maxValue(initial + random.nextInt(THREADS * CALLS_PER_THREAD * 8));
            }
            return new Round(settings.build(), 1 + random.nextInt(3), random.nextInt(20_000),
                    random.nextBoolean() ? 0.0 : 0.002, random.nextInt(3) == 0, random.nextInt(20_000_000));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC_BATCH"})
    void neverIssuesAValueTwiceNorLosesOneBetweenTinyBlocks(Strategy strategy) throws Exception {
        long seed = Long.getLong("seqgen.stress.seed", System.nanoTime());
        long seconds = Long.getLong("seqgen.stress.seconds", DEFAULT_SECONDS);
        Random random = new Random(seed);
        ExecutorService refillPool = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "stress-refill");
            thread.setDaemon(true);
            return thread;
        });
        // Background refills start after a random delay, so that callers reach the end of a block before,
        // during and after the refill.
        Executor refills = task -> refillPool.execute(() -> {
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(50_000));
            task.run();
        });
        ExecutorService callers = Executors.newFixedThreadPool(THREADS + 1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Totals totals = new Totals();
        try {
            do {
                Round round = Round.random(strategy, random);
                try {
                    runRound(round, refills, callers, totals);
                } catch (AssertionError | Exception e) {
                    throw new AssertionError("round " + (totals.rounds + 1) + " of seed " + seed + " failed: " + round, e);
                }
            } while (System.nanoTime() < deadline);
        } finally {
            callers.shutdownNow();
            refillPool.shutdownNow();
        }
        System.out.printf("block hand-off stress %s (seed %d): %d rounds, %,d values, %,d reservations, "
                        + "%,d waits, %,d discarded, %,d lost to unknown outcomes, %d closes, %d exhaustions%n",
                strategy, seed, totals.rounds, totals.values, totals.reservations, totals.waits, totals.discarded,
                totals.lostToUnknownOutcome, totals.closes, totals.exhaustions);
        assertThat(totals.values).as("values taken").isPositive();
    }

    private static final class Totals {
        int rounds;
        long values;
        long reservations;
        long waits;
        long discarded;
        long lostToUnknownOutcome;
        int closes;
        int exhaustions;
    }

    private static void runRound(Round round, Executor refills, ExecutorService callers, Totals totals)
            throws Exception {
        JitteryStore store = new JitteryStore(new InMemorySequenceStore(), round.maxLatencyNanos(), round.failureRate());
        List<SequenceRegistry> registries = new ArrayList<>();
        List<Sequence> sequences = new ArrayList<>();
        for (int g = 0; g < round.generators(); g++) {
            SequenceRegistry registry = SequenceRegistry.builder(store).defaults(round.settings()).executor(refills).build();
            registries.add(registry);
            sequences.add(registry.sequence("stress"));
        }
        List<LongList> received = new ArrayList<>();
        Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> running = new ArrayList<>();
        int[] exhausted = new int[1];
        for (int t = 0; t < THREADS; t++) {
            Sequence sequence = sequences.get(t % sequences.size());
            LongList mine = new LongList();
            received.add(mine);
            running.add(callers.submit(() -> {
                start.await();
                ThreadLocalRandom random = ThreadLocalRandom.current();
                long last = Long.MIN_VALUE;
                try {
                    for (int call = 0; call < CALLS_PER_THREAD; call++) {
                        long[] values = random.nextBoolean() ? new long[] {sequence.next()}
                                : sequence.nextValues(1 + random.nextInt(50));
                        for (long value : values) {
                            if (value <= last) {
                                unexpected.add(new AssertionError("thread got " + value + " after " + last));
                            }
                            last = value;
                            mine.add(value);
                        }
                    }
                } catch (SequenceUnavailableException e) {
                    if (!round.closeOneMidway() || !e.getMessage().contains("closed")) {
                        unexpected.add(e);
                    }
                } catch (SequenceExhaustedException e) {
                    synchronized (exhausted) {
                        exhausted[0]++;
                    }
                } catch (RuntimeException | Error e) {
                    unexpected.add(e);
                }
                return null;
            }));
        }
        if (round.closeOneMidway()) {
            running.add(callers.submit(() -> {
                start.await();
                LockSupport.parkNanos(round.closeAfterNanos());
                registries.get(0).close();
                return null;
            }));
        }
        start.countDown();
        for (Future<?> future : running) {
            future.get(60, TimeUnit.SECONDS);
        }
        registries.forEach(SequenceRegistry::close);

        assertThat(unexpected).as("errors callers should never see").isEmpty();
        long[] all = LongList.concat(received);
        long[] sorted = Concurrently.assertUnique(all);
        long issued = sequences.stream().mapToLong(s -> s.stats().issued()).sum();
        long discarded = sequences.stream().mapToLong(s -> s.stats().discarded()).sum();
        long initial = round.settings().initialValue();
        long finalNext = store.nextValue("stress").orElseThrow();
        assertThat(issued).as("issued counters vs values the callers received").isEqualTo(all.length);
        if (sorted.length > 0) {
            assertThat(sorted[0]).isGreaterThanOrEqualTo(initial);
            assertThat(sorted[sorted.length - 1]).isLessThan(finalNext).isLessThanOrEqualTo(round.settings().maxValue());
        }
        long kept = store.keptRanges("stress").stream().mapToLong(ReservedRange::count).sum();
        assertThat(finalNext - initial)
                .as("values from the initial value to next_value: received + discarded + kept for the fleet + lost to"
                        + " unknown outcomes")
                .isEqualTo(all.length + discarded + kept + store.lostToUnknownOutcome());

        totals.rounds++;
        totals.values += all.length;
        totals.reservations += sequences.stream().mapToLong(s -> s.stats().reservations()).sum();
        totals.waits += sequences.stream().mapToLong(s -> s.stats().waits()).sum();
        totals.discarded += discarded;
        totals.lostToUnknownOutcome += store.lostToUnknownOutcome();
        totals.closes += round.closeOneMidway() ? 1 : 0;
        totals.exhaustions += exhausted[0];
    }
}
