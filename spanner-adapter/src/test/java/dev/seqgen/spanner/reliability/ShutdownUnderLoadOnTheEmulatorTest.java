package dev.seqgen.spanner.reliability;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.SpannerSequenceStore;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Closing registries on the Spanner emulator while threads take values. Every caller then gets a
 * {@link SequenceUnavailableException} naming the sequence; the row, read with {@code store.nextValue}, shows
 * that a generator gave its unused tail back exactly when nobody had reserved after it (every value below
 * {@code next_value} was received or counted as discarded), and kept its hands off the row when another
 * generator had reserved after it.
 */
@DisplayName("shutdown under use on spanner-emulator")
class ShutdownUnderLoadOnTheEmulatorTest {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator();

    private static final int THREADS = 8;

    private SpannerSequenceStore store;
    private ExecutorService pool;

    @BeforeEach
    void createStore() {
        store = emulator.store("seqgen_sequences");
        pool = Executors.newFixedThreadPool(THREADS);
    }

    @AfterEach
    void stopThreads() {
        pool.shutdownNow();
    }

    private static SequenceSettings settings(Strategy strategy) {
        return SequenceSettings.builder().strategy(strategy).blockSize(100).lowWatermark(50)
                .acquireTimeout(SpannerEmulator.PATIENCE).build();
    }

    /** Callers of one sequence that take values until it is closed under them. */
    private static final class Callers {
        final Queue<long[]> values = new ConcurrentLinkedQueue<>();
        final Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        final Queue<String> endings = new ConcurrentLinkedQueue<>();
        final List<Future<?>> running = new ArrayList<>();
        volatile long closeReturnedAt = Long.MAX_VALUE;

        void start(ExecutorService pool, int threads, Sequence sequence, CountDownLatch go) {
            for (int t = 0; t < threads; t++) {
                running.add(pool.submit(() -> {
                    go.await();
                    LongStream.Builder mine = LongStream.builder();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    try {
                        for (;;) {
                            long callStart = System.nanoTime();
                            long[] got = random.nextBoolean() ? new long[] {sequence.next()}
                                    : sequence.nextValues(1 + random.nextInt(5));
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

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"ASYNC", "BATCH", "ASYNC_BATCH"})
    @DisplayName("spanner-emulator: closing while 8 threads take values fails every later caller clearly and gives"
            + " back exactly the unused tail")
    void closingUnderUseFailsLaterCallersAndGivesBackExactlyTheUnusedTail(Strategy strategy) throws Exception {
        String name = "closed-" + strategy.name().toLowerCase();
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        Sequence sequence = registry.sequence(name);
        Callers callers = new Callers();
        CountDownLatch go = new CountDownLatch(1);
        callers.start(pool, THREADS, sequence, go);
        go.countDown();
        Thread.sleep(800);

        registry.close();
        callers.closeReturnedAt = System.nanoTime();
        long[] received = callers.awaitAll();

        assertThat(callers.unexpected).isEmpty();
        assertThat(callers.endings).hasSize(THREADS).allSatisfy(message ->
                assertThat(message).contains("sequence '" + name + "'").contains("closed"));
        assertThatThrownBy(sequence::next).as("a caller after close")
                .isInstanceOf(SequenceUnavailableException.class).hasMessageContaining("sequence '" + name + "'");
        long[] sorted = Concurrently.assertUnique(received);
        long next = store.nextValue(name).orElseThrow();
        long discarded = sequence.stats().discarded();
        assertThat(sorted).isNotEmpty();
        assertThat(sorted[sorted.length - 1]).isLessThan(next);
        assertThat(next - 1).as("values below next_value: received + discarded by bulk calls cut short")
                .isEqualTo(sorted.length + discarded);
        assertThat(sequence.stats().issued()).isEqualTo(sorted.length);
        if (strategy == Strategy.ASYNC) {
            Concurrently.assertContiguousFrom(1, sorted);
        }
        System.out.printf("spanner-emulator %s: %,d values until close, next_value %,d after close (highest reserved"
                + " %,d), %d discarded%n", strategy, sorted.length, next, sequence.stats().highestReserved(), discarded);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC_BATCH"})
    @DisplayName("spanner-emulator: the tail is given back only by the generator that reserved last")
    void theTailIsGivenBackOnlyByTheGeneratorThatReservedLast(Strategy strategy) {
        String name = "last-" + strategy.name().toLowerCase();
        SequenceRegistry first = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        SequenceRegistry second = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        Sequence a = first.sequence(name);
        Sequence b = second.sequence(name);
        assertThat(a.next()).isEqualTo(1); // reserves [1, 101)
        assertThat(b.next()).isEqualTo(101); // reserves [101, 201), after a

        first.close();
        assertThat(store.nextValue(name)).as("row after the first closed: b reserved after it").hasValue(201);
        assertThat(a.stats().discarded()).as("a's tail, not given back").isEqualTo(99);

        second.close();
        assertThat(store.nextValue(name)).as("row after the second closed: nobody reserved after it").hasValue(102);
        assertThat(b.stats().discarded()).isZero();

        try (SequenceRegistry third = SequenceRegistry.builder(store).defaults(settings(strategy)).build()) {
            assertThat(third.sequence(name).next()).as("the given-back tail is used again, once").isEqualTo(102);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC_BATCH"})
    @DisplayName("spanner-emulator: a generator closing while another keeps reserving never gives back what is not"
            + " its own")
    void aGeneratorClosingWhileAnotherKeepsReservingNeverGivesBackWhatIsNotItsOwn(Strategy strategy)
            throws Exception {
        String name = "shared-" + strategy.name().toLowerCase();
        SequenceRegistry first = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        SequenceRegistry second = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        Sequence a = first.sequence(name);
        Sequence b = second.sequence(name);
        Callers callersOfA = new Callers();
        Callers callersOfB = new Callers();
        CountDownLatch go = new CountDownLatch(1);
        callersOfA.start(pool, THREADS / 2, a, go);
        callersOfB.start(pool, THREADS / 2, b, go);
        go.countDown();
        Thread.sleep(600);

        first.close();
        callersOfA.closeReturnedAt = System.nanoTime();
        long reservedBySecond = b.stats().highestReserved();
        long rowAfterFirstClosed = store.nextValue(name).orElseThrow();
        assertThat(rowAfterFirstClosed).as("next_value right after the first closed").isGreaterThan(reservedBySecond);
        Thread.sleep(400);
        second.close();
        callersOfB.closeReturnedAt = System.nanoTime();

        long[] receivedA = callersOfA.awaitAll();
        long[] receivedB = callersOfB.awaitAll();
        assertThat(callersOfA.unexpected).isEmpty();
        assertThat(callersOfB.unexpected).isEmpty();
        long[] sorted = Concurrently.assertUnique(LongStream.concat(Arrays.stream(receivedA), Arrays.stream(receivedB))
                .toArray());
        long next = store.nextValue(name).orElseThrow();
        long discarded = a.stats().discarded() + b.stats().discarded();
        assertThat(sorted[sorted.length - 1]).isLessThan(next);
        assertThat(next - 1).as("values below next_value: received or discarded by either")
                .isEqualTo(sorted.length + discarded);
        System.out.printf("spanner-emulator %s: first closed with %,d values, second went on to %,d; next_value %,d;"
                + " %d discarded%n", strategy, receivedA.length, receivedB.length, next, discarded);
    }
}
