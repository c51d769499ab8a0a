package dev.seqgen.reliability;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.time.Duration;
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
import java.util.stream.Stream;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing a registry while sixteen threads take values as fast as they can, on H2, PostgreSQL and MariaDB.
 * Every caller ends with a {@link SequenceUnavailableException} that names the sequence and says it is closed;
 * no call that began after {@code close()} returned gets a value; and the row shows that the unused tail was
 * given back exactly: every value below the final {@code next_value} was received by a caller or counted as
 * discarded (a bulk call cut short by the close), none above it was. With a second generator still reserving,
 * the first gives back nothing that is not its own: the row never moves below what the second has reserved.
 */
class ShutdownUnderLoadTest {

    private static final int THREADS = 16;

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(db -> Stream.of(Strategy.values()).map(s -> Arguments.of(db, s)));
    }

    static Stream<Arguments> databasesAndBlockStrategies() {
        return TestDatabase.all().flatMap(db -> Stream.of(Strategy.BATCH, Strategy.ASYNC_BATCH)
                .map(s -> Arguments.of(db, s)));
    }

    private JdbcSequenceStore store(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        cleanups.add(() -> database.dropTable(table));
        return JdbcSequenceStore.builder(database.dataSource()).table(table).build();
    }

    private static SequenceSettings settings(Strategy strategy) {
        return SequenceSettings.builder().strategy(strategy).blockSize(100).lowWatermark(50)
                .acquireTimeout(Duration.ofSeconds(5)).build();
    }

    /** What a group of callers of one sequence received until their sequence was closed. */
    private static final class Callers {
        final Queue<long[]> values = new ConcurrentLinkedQueue<>();
        final Queue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        final Queue<String> endings = new ConcurrentLinkedQueue<>();
        final List<Future<?>> running = new ArrayList<>();
        volatile long closeReturnedAt = Long.MAX_VALUE;

        void start(ExecutorService pool, int threads, Sequence sequence, DataSource dataSource, CountDownLatch go) {
            for (int t = 0; t < threads; t++) {
                running.add(pool.submit(() -> {
                    go.await();
                    LongList mine = new LongList();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    try {
                        for (;;) {
                            long callStart = System.nanoTime();
                            long[] got = take(sequence, dataSource, random);
                            if (callStart - closeReturnedAt > 0) {
                                unexpected.add(new AssertionError("a call begun after close() returned got values"));
                            }
                            mine.addAll(got);
                        }
                    } catch (SequenceUnavailableException e) {
                        endings.add(e.getMessage());
                    } catch (Throwable e) {
                        unexpected.add(e);
                    }
                    values.add(mine.toArray());
                    return null;
                }));
            }
        }

        private static long[] take(Sequence sequence, DataSource dataSource, ThreadLocalRandom random) throws Exception {
            if (sequence.strategy() != Strategy.SYNC) {
                return random.nextBoolean() ? new long[] {sequence.next()}
                        : sequence.nextValues(1 + random.nextInt(10));
            }
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                try {
                    long[] numbers = sequence.nextValuesInTransaction(connection, 1 + random.nextInt(3));
                    connection.commit();
                    return numbers;
                } catch (RuntimeException e) {
                    connection.rollback();
                    throw e;
                } finally {
                    connection.setAutoCommit(true);
                }
            }
        }

        long[] awaitAll() throws Exception {
            for (Future<?> future : running) {
                future.get(20, TimeUnit.SECONDS);
            }
            return values.stream().flatMapToLong(Arrays::stream).toArray();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("databasesAndStrategies")
    void closingDuringHeavyUseFailsLaterCallersClearlyAndGivesBackExactlyTheUnusedTail(TestDatabase database,
            Strategy strategy) throws Exception {
        JdbcSequenceStore store = store(database);
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        Sequence orders = registry.sequence("orders");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        cleanups.add(pool::shutdownNow);
        Callers callers = new Callers();
        CountDownLatch go = new CountDownLatch(1);
        callers.start(pool, THREADS, orders, database.dataSource(), go);
        go.countDown();
        Thread.sleep(300);
        registry.close();
        callers.closeReturnedAt = System.nanoTime();
        long[] received = callers.awaitAll();

        assertThat(callers.unexpected).isEmpty();
        assertThat(callers.endings).hasSize(THREADS).allSatisfy(message ->
                assertThat(message).contains("sequence 'orders'").contains("closed"));
        long[] sorted = Concurrently.assertUnique(received);
        long next = store.nextValue("orders").orElseThrow();
        long discarded = orders.stats().discarded();
        assertThat(sorted[sorted.length - 1]).isLessThan(next);
        assertThat(next - 1).as("values below next_value: received + discarded by bulk calls cut short")
                .isEqualTo(sorted.length + discarded);
        assertThat(orders.stats().issued()).isEqualTo(sorted.length);
        if (strategy == Strategy.SYNC || strategy == Strategy.ASYNC) {
            Concurrently.assertContiguousFrom(1, sorted);
        }
        System.out.printf("%s %s: %,d values until close, next_value %,d after close (highest reserved %,d),"
                        + " %d discarded%n", database, strategy, sorted.length, next, orders.stats().highestReserved(),
                discarded);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("databasesAndBlockStrategies")
    void aGeneratorClosingWhileAnotherKeepsReservingNeverGivesBackWhatIsNotItsOwn(TestDatabase database,
            Strategy strategy) throws Exception {
        JdbcSequenceStore store = store(database);
        SequenceRegistry first = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        SequenceRegistry second = SequenceRegistry.builder(store).defaults(settings(strategy)).build();
        Sequence a = first.sequence("orders");
        Sequence b = second.sequence("orders");
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        cleanups.add(pool::shutdownNow);
        Callers callersOfA = new Callers();
        Callers callersOfB = new Callers();
        CountDownLatch go = new CountDownLatch(1);
        callersOfA.start(pool, THREADS / 2, a, database.dataSource(), go);
        callersOfB.start(pool, THREADS / 2, b, database.dataSource(), go);
        go.countDown();
        Thread.sleep(300);

        first.close();
        callersOfA.closeReturnedAt = System.nanoTime();
        long reservedBySecond = b.stats().highestReserved(); // committed in the row before it is read below
        long rowAfterFirstClosed = store.nextValue("orders").orElseThrow();
        assertThat(rowAfterFirstClosed).as("next_value right after the first generator closed")
                .isGreaterThan(reservedBySecond);
        Thread.sleep(200);
        second.close();
        callersOfB.closeReturnedAt = System.nanoTime();

        long[] receivedA = callersOfA.awaitAll();
        long[] receivedB = callersOfB.awaitAll();
        assertThat(callersOfA.unexpected).isEmpty();
        assertThat(callersOfB.unexpected).isEmpty();
        long[] all = new long[receivedA.length + receivedB.length];
        System.arraycopy(receivedA, 0, all, 0, receivedA.length);
        System.arraycopy(receivedB, 0, all, receivedA.length, receivedB.length);
        long[] sorted = Concurrently.assertUnique(all);
        long next = store.nextValue("orders").orElseThrow();
        long discarded = a.stats().discarded() + b.stats().discarded();
        assertThat(sorted[sorted.length - 1]).isLessThan(next);
        assertThat(next - 1).as("values below next_value: received by either, or discarded by either")
                .isEqualTo(sorted.length + discarded);
        System.out.printf("%s %s: first closed with %,d values, second went on to %,d; next_value %,d;"
                        + " %d discarded (tails not given back because the other had reserved after)%n", database,
                strategy, receivedA.length, receivedB.length, next, discarded);
    }
}
