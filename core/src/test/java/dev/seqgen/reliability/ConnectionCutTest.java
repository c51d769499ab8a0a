package dev.seqgen.reliability;

import dev.seqgen.testing.Slow;
import com.zaxxer.hikari.HikariDataSource;
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
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The generators reach PostgreSQL or MariaDB through a {@link TcpProxy} on loopback that the test cuts and
 * restores mid-run, as a server restart ({@link TcpProxy.Cut#RESET}) or a network partition
 * ({@link TcpProxy.Cut#BLACKHOLE}) would. The pool (HikariCP) has a 500 ms connection timeout and the driver
 * short connect and socket timeouts, so that every wait stays bounded. Whatever is cut, no value is issued
 * twice, and once the connection is back every strategy works again in the same registry.
 */
@Slow
class ConnectionCutTest {

    /** The acquire timeout of every sequence here. */
    private static final Duration ACQUIRE_TIMEOUT = Duration.ofSeconds(1);
    /**
     * What a caller may take beyond the acquire timeout (the backoff pause, a pool timeout, scheduling): a bound
     * against a hang, wide because this is a shared machine and no speed is measured here.
     */
    private static final long SLACK_MILLIS = 10_000;
    /**
     * The driver's socket timeout, which alone bounds a statement caught by a partition: the acquire timeout
     * bounds waiting for the store or for another caller, never a statement already inside the driver.
     */
    private static final int SOCKET_TIMEOUT_SECONDS = 3;

    private final List<AutoCloseable> resources = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = resources.size() - 1; i >= 0; i--) {
            resources.get(i).close();
        }
    }

    static Stream<TestDatabase> servers() {
        return Stream.of(TestDatabase.POSTGRESQL, TestDatabase.MARIADB);
    }

    static Stream<Arguments> serversAndConnectionModes() {
        return servers().flatMap(db -> Stream.of(Arguments.of(db, "pooled connections"),
                Arguments.of(db, "dedicated connection")));
    }

    /** A proxy, a pool through it and a store over that pool; the sequence table is dropped afterwards. */
    private final class Setup {
        final TestDatabase database;
        final TcpProxy proxy;
        final HikariDataSource pool;
        final JdbcSequenceStore store;
        final JdbcSequenceStore direct;

        Setup(TestDatabase database, boolean dedicatedConnection) throws Exception {
            this.database = database;
            DatabaseServer server = DatabaseServer.of(database);
            proxy = TcpProxy.to(server.host(), server.port());
            resources.add(proxy);
            String driverTimeouts = database == TestDatabase.POSTGRESQL
                    ? "connectTimeout=2&socketTimeout=" + SOCKET_TIMEOUT_SECONDS
                    : "connectTimeout=2000&socketTimeout=" + SOCKET_TIMEOUT_SECONDS * 1000;
            pool = server.pool(server.urlVia(proxy.port(), driverTimeouts), 16, config -> {
                config.setConnectionTimeout(500);
                config.setValidationTimeout(250);
                config.setMinimumIdle(2);
            });
            resources.add(pool);
            String table = TestDatabase.uniqueTable();
            resources.add(() -> database.dropTable(table));
            store = JdbcSequenceStore.builder(pool).table(table).dedicatedConnection(dedicatedConnection).build();
            resources.add(store);
            direct = JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        }

        SequenceRegistry registry() {
            SequenceRegistry registry = SequenceRegistry.builder(store)
                    .defaults(SequenceSettings.builder().acquireTimeout(ACQUIRE_TIMEOUT).build())
                    .sequence("sync", settings(Strategy.SYNC, 1, 0))
                    .sequence("async", settings(Strategy.ASYNC, 1, 0))
                    .sequence("batch", settings(Strategy.BATCH, 20, 0))
                    .sequence("async-batch", settings(Strategy.ASYNC_BATCH, 1000, 500))
                    .build();
            resources.add(registry);
            return registry;
        }

        long rowNextValue(String sequence) {
            return direct.nextValue(sequence).orElseThrow();
        }
    }

    private static SequenceSettings settings(Strategy strategy, int blockSize, int lowWatermark) {
        return SequenceSettings.builder().strategy(strategy).blockSize(blockSize).lowWatermark(lowWatermark)
                .acquireTimeout(ACQUIRE_TIMEOUT).build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void asyncBatchKeepsServingFromItsPrefetchedBlockDuringAShortOutage(TestDatabase database) throws Exception {
        Setup setup = new Setup(database, false);
        Sequence sequence = setup.registry().sequence("async-batch");
        LongList values = new LongList();
        for (int i = 0; i < 600; i++) { // past the low watermark: the second block is prefetched
            values.add(sequence.next());
        }
        awaitRemaining(sequence, 1_400);
        long reservations = sequence.stats().reservations();
        long waits = sequence.stats().waits();

        setup.proxy.cut(TcpProxy.Cut.RESET);
        long slowest = 0;
        for (int i = 0; i < 1_350; i++) {
            long start = System.nanoTime();
            values.add(sequence.next());
            slowest = Math.max(slowest, System.nanoTime() - start);
        }
        assertThat(sequence.stats().waits()).as("callers that waited during the outage").isEqualTo(waits);
        assertThat(sequence.stats().reservations()).as("reservations during the outage").isEqualTo(reservations);
        assertThat(TimeUnit.NANOSECONDS.toMillis(slowest)).as("slowest next() during the outage, ms")
                .isLessThan(ACQUIRE_TIMEOUT.toMillis() + SLACK_MILLIS);

        setup.proxy.restore();
        long[] afterRecovery = takeWhenBack(() -> sequence.nextValues(2_000));
        values.addAll(afterRecovery);
        long[] sorted = Concurrently.assertUnique(values.toArray());
        assertThat(sorted[sorted.length - 1]).isLessThan(setup.rowNextValue("async-batch"));
        System.out.printf("%s: 1,350 values served during the outage, slowest %d us, no wait, no reservation%n",
                database, TimeUnit.NANOSECONDS.toMicros(slowest));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void everyStrategyFailsClearlyAfterTheAcquireTimeoutThenWorksAgainWithoutARestart(TestDatabase database)
            throws Exception {
        Setup setup = new Setup(database, false);
        SequenceRegistry registry = setup.registry();
        Map<Strategy, Sequence> sequences = new EnumMap<>(Strategy.class);
        Map<Strategy, LongList> values = new EnumMap<>(Strategy.class);
        for (String name : List.of("sync", "async", "batch", "async-batch")) {
            Sequence sequence = registry.sequence(name);
            sequences.put(sequence.strategy(), sequence);
            values.put(sequence.strategy(), new LongList());
        }
        try (Connection caller = setup.pool.getConnection()) {
            caller.setAutoCommit(false);
            values.get(Strategy.SYNC).add(sequences.get(Strategy.SYNC).nextInTransaction(caller));
            caller.commit();
            for (Strategy strategy : List.of(Strategy.ASYNC, Strategy.BATCH, Strategy.ASYNC_BATCH)) {
                values.get(strategy).add(sequences.get(strategy).next());
            }

            setup.proxy.cut(TcpProxy.Cut.RESET);

            // SYNC: the caller's transaction is gone with its connection; seqgen says so at once, never retries.
            long start = System.nanoTime();
            assertThatThrownBy(() -> sequences.get(Strategy.SYNC).nextInTransaction(caller))
                    .isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'sync'")
                    .hasMessageContaining("inside the caller's transaction (roll it back and retry)")
                    .hasMessageContaining(setup.store.table());
            assertThat(elapsedMillis(start)).isLessThan(ACQUIRE_TIMEOUT.toMillis() + SLACK_MILLIS);
        }

        // The others: values in hand are still served; then eight callers at once, each waiting at most the
        // acquire timeout for a store that does not answer, get an exception that names the sequence.
        ExecutorService callers = Executors.newFixedThreadPool(8 * 3);
        resources.add(callers::shutdownNow);
        List<Future<Long>> outcomes = new ArrayList<>();
        Queue<String> messages = new ConcurrentLinkedQueue<>();
        for (Strategy strategy : List.of(Strategy.ASYNC, Strategy.BATCH, Strategy.ASYNC_BATCH)) {
            Sequence sequence = sequences.get(strategy);
            LongList taken = values.get(strategy);
            for (int t = 0; t < 8; t++) {
                outcomes.add(callers.submit(() -> {
                    long callStart = System.nanoTime();
                    try {
                        for (;;) {
                            callStart = System.nanoTime();
                            long value = sequence.next();
                            synchronized (taken) {
                                taken.add(value);
                            }
                        }
                    } catch (SequenceUnavailableException e) {
                        messages.add(e.getMessage());
                        assertThat(e.getMessage()).contains("sequence '" + sequence.name() + "'")
                                .contains("acquire timeout of PT1S");
                        return elapsedMillis(callStart);
                    }
                }));
            }
        }
        long longestWait = 0;
        for (Future<Long> outcome : outcomes) {
            longestWait = Math.max(longestWait, outcome.get(30, TimeUnit.SECONDS));
        }
        assertThat(longestWait).as("longest wait of a failing call, ms")
                .isLessThan(ACQUIRE_TIMEOUT.toMillis() + SLACK_MILLIS);
        assertThat(values.get(Strategy.ASYNC_BATCH).size()).as("async-batch values served from its block in hand")
                .isGreaterThan(400);

        setup.proxy.restore();
        try (Connection caller = connectionAfterRestore(setup.pool)) {
            caller.setAutoCommit(false);
            values.get(Strategy.SYNC).add(sequences.get(Strategy.SYNC).nextInTransaction(caller));
            caller.commit();
            caller.setAutoCommit(true);
        }
        for (Strategy strategy : List.of(Strategy.ASYNC, Strategy.BATCH, Strategy.ASYNC_BATCH)) {
            values.get(strategy).addAll(takeWhenBack(() -> sequences.get(strategy).nextValues(100)));
        }
        for (Map.Entry<Strategy, Sequence> entry : sequences.entrySet()) {
            long[] sorted = Concurrently.assertUnique(values.get(entry.getKey()).toArray());
            assertThat(sorted[sorted.length - 1]).isLessThan(setup.rowNextValue(entry.getValue().name()));
        }
        System.out.printf("%s: 24 callers failed within %d ms (acquire timeout %d ms); for example: %s%n", database,
                longestWait, ACQUIRE_TIMEOUT.toMillis(), messages.peek());
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("serversAndConnectionModes")
    void repeatedCutsUnderLoadNeverIssueAValueTwiceAndSyncStaysGapless(TestDatabase database, String mode)
            throws Exception {
        Setup setup = new Setup(database, mode.startsWith("dedicated"));
        String committed = TestDatabase.uniqueTable();
        resources.add(() -> database.dropTable(committed));
        database.execute("CREATE TABLE " + committed + " (v BIGINT NOT NULL PRIMARY KEY)");
        SequenceRegistry registry = setup.registry();
        List<String> names = List.of("sync", "async", "batch", "async-batch");
        Map<String, Queue<long[]>> taken = new HashMap<>();
        Map<String, AtomicLong> failures = new HashMap<>();
        Map<String, AtomicLong> successes = new HashMap<>();
        for (String name : names) {
            registry.sequence(name);
            taken.put(name, new ConcurrentLinkedQueue<>());
            failures.put(name, new AtomicLong());
            successes.put(name, new AtomicLong());
        }
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService workers = Executors.newFixedThreadPool(names.size() * 3);
        resources.add(workers::shutdownNow);
        List<Future<?>> running = new ArrayList<>();
        for (String name : names) {
            Sequence sequence = registry.sequence(name);
            for (int t = 0; t < 3; t++) {
                running.add(workers.submit((Callable<Void>) () -> {
                    LongList mine = new LongList();
                    while (!stop.get()) {
                        try {
                            if (sequence.strategy() == Strategy.SYNC) {
                                commitOne(setup.pool, sequence, committed);
                            } else {
                                mine.addAll(sequence.nextValues(1 + ThreadLocalRandom.current().nextInt(5)));
                            }
                            successes.get(name).incrementAndGet();
                        } catch (SequenceUnavailableException | SQLException e) {
                            failures.get(name).incrementAndGet();
                            Thread.sleep(20);
                        }
                    }
                    taken.get(name).add(mine.toArray());
                    return null;
                }));
            }
        }
        int cuts = 0;
        for (long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2); System.nanoTime() < end; cuts++) {
            Thread.sleep(150 + ThreadLocalRandom.current().nextInt(250));
            setup.proxy.cut(TcpProxy.Cut.RESET);
            Thread.sleep(100 + ThreadLocalRandom.current().nextInt(300));
            setup.proxy.restore();
        }
        // Everyone recovers before the end: every sequence serves again after the last restore.
        Map<String, Long> atLastRestore = new HashMap<>();
        successes.forEach((name, count) -> atLastRestore.put(name, count.get()));
        await().atMost(Duration.ofMinutes(2)).until(() -> names.stream()
                .allMatch(name -> successes.get(name).get() > atLastRestore.get(name)));
        stop.set(true);
        for (Future<?> future : running) {
            future.get(30, TimeUnit.SECONDS);
        }

        StringBuilder figures = new StringBuilder();
        for (String name : names) {
            long[] values = name.equals("sync") ? committedValues(database, committed)
                    : taken.get(name).stream().flatMapToLong(Arrays::stream).toArray();
            long[] sorted = Concurrently.assertUnique(values);
            long next = setup.rowNextValue(name);
            assertThat(sorted).as(name + " values after recovery").isNotEmpty();
            assertThat(sorted[sorted.length - 1]).isLessThan(next);
            if (name.equals("sync")) {
                Concurrently.assertContiguousFrom(1, sorted);
                assertThat(next).as("sync next_value: committed values + 1").isEqualTo(sorted.length + 1);
            }
            figures.append(String.format(" %s %,d values/%,d failed calls;", name, sorted.length,
                    failures.get(name).get()));
        }
        System.out.printf("%s, %s: %d cuts in 2 s:%s%n", database, mode, cuts, figures);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void aPartitionIsBoundedByTheAcquireTimeoutForWaitersAndByTheSocketTimeoutForTheCallerInTheDriver(
            TestDatabase database) throws Exception {
        Setup setup = new Setup(database, false);
        SequenceRegistry registry = setup.registry();
        Sequence batch = registry.sequence("batch");
        Sequence async = registry.sequence("async");
        Sequence asyncBatch = registry.sequence("async-batch");
        LongList batchValues = new LongList();
        batchValues.add(batch.next());
        async.next();
        asyncBatch.next();
        awaitRemaining(asyncBatch, 999);
        long asyncBatchWaits = asyncBatch.stats().waits();
        long asyncBatchReservations = asyncBatch.stats().reservations();

        setup.proxy.cut(TcpProxy.Cut.BLACKHOLE);
        ExecutorService callers = Executors.newFixedThreadPool(10);
        resources.add(callers::shutdownNow);
        List<Future<Long>> batchCalls = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            batchCalls.add(callers.submit(() -> timeUntilFailure(batch, batchValues)));
        }
        Future<Long> asyncCall = callers.submit(() -> timeUntilFailure(async, new LongList()));
        for (int i = 0; i < 900; i++) {
            asyncBatch.next();
        }
        List<Long> batchWaits = new ArrayList<>();
        for (Future<Long> call : batchCalls) {
            batchWaits.add(call.get(30, TimeUnit.SECONDS));
        }
        long asyncWait = asyncCall.get(30, TimeUnit.SECONDS);
        setup.proxy.restore();

        batchWaits.sort(null);
        // A statement caught by the partition ends only when the driver's socket timeout fires; closing a TLS
        // socket (PostgreSQL's default sslmode=prefer) then waits once more for the peer's close_notify.
        long bound = 2 * TimeUnit.SECONDS.toMillis(SOCKET_TIMEOUT_SECONDS) + SLACK_MILLIS;
        assertThat(asyncBatch.stats().waits()).as("async-batch callers that waited for the partitioned store")
                .isEqualTo(asyncBatchWaits);
        assertThat(asyncBatch.stats().reservations()).as("900 async-batch values from its block in hand")
                .isEqualTo(asyncBatchReservations);
        assertThat(batchWaits.get(batchWaits.size() - 2)).as("BATCH callers waiting for another's refill, ms")
                .isLessThan(ACQUIRE_TIMEOUT.toMillis() + SLACK_MILLIS);
        assertThat(batchWaits.get(batchWaits.size() - 1)).as("the BATCH caller inside the driver, ms")
                .isLessThan(bound);
        assertThat(asyncWait).as("the ASYNC caller inside the driver, ms").isLessThan(bound);
        batchValues.addAll(takeWhenBack(() -> batch.nextValues(50)));
        Concurrently.assertUnique(batchValues.toArray());
        System.out.printf("%s partition: BATCH callers failed after %s ms; ASYNC after %d ms (socket timeout %d s,"
                        + " acquire timeout %d ms)%n", database, batchWaits, asyncWait, SOCKET_TIMEOUT_SECONDS,
                ACQUIRE_TIMEOUT.toMillis());
    }

    private static long timeUntilFailure(Sequence sequence, LongList values) {
        long callStart = System.nanoTime();
        try {
            for (;;) {
                callStart = System.nanoTime();
                long value = sequence.next();
                synchronized (values) {
                    values.add(value);
                }
            }
        } catch (SequenceUnavailableException e) {
            assertThat(e.getMessage()).contains("sequence '" + sequence.name() + "'");
            return elapsedMillis(callStart);
        }
    }

    private static void commitOne(HikariDataSource pool, Sequence sequence, String committed) throws Exception {
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + committed + " (v) VALUES (?)")) {
                insert.setLong(1, sequence.nextInTransaction(connection));
                insert.executeUpdate();
                connection.commit();
            } catch (Exception e) {
                try {
                    connection.rollback();
                } catch (SQLException ignored) {
                    // the connection is gone, and the transaction with it
                }
                throw e;
            }
        }
    }

    private static long[] committedValues(TestDatabase database, String table) throws Exception {
        LongList values = new LongList();
        try (Connection connection = database.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT v FROM " + table)) {
            while (rs.next()) {
                values.add(rs.getLong(1));
            }
        }
        return values.toArray();
    }

    /** Retries for up to a minute while the pool reconnects; the same sequence object must work again. */
    private static long[] takeWhenBack(Callable<long[]> take) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        for (;;) {
            try {
                return take.call();
            } catch (SequenceUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    private static void awaitRemaining(Sequence sequence, long atLeast) {
        await("the prefetch arrives").atMost(Duration.ofMinutes(1))
                .until(() -> sequence.stats().remaining() >= atLeast);
    }

    private static long elapsedMillis(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /**
     * The caller's first connection once the proxy forwards again: the pool's 500 ms timeout can end an attempt
     * that raced the restore (or a loaded machine's slow handshake), so attempts are allowed for a minute.
     */
    private static Connection connectionAfterRestore(javax.sql.DataSource pool) throws java.sql.SQLException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        for (;;) {
            try {
                return pool.getConnection();
            } catch (java.sql.SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }
}
