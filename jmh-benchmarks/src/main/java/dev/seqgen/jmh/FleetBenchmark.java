package dev.seqgen.jmh;

import dev.seqgen.Sequence;
import com.google.cloud.spanner.connection.SpannerPool;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jmh.bulk.BulkDatabase;
import dev.seqgen.jmh.table.CommitLatencyDataSource;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStore.Sizing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import me.ahoo.cosid.segment.IdSegment;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.segment.concurrent.PrefetchWorkerExecutorService;
import org.hibernate.id.enhanced.StandardOptimizerDescriptor;

/**
 * A fleet on one counter row: N application instances (N independent {@link SequenceRegistry} objects, N
 * Hibernate pooled optimizers, or N CosId {@code SegmentChainId}s) share one simulated row whose transactions run one
 * at a time, each holding the row for a service time (a fair lock held for 10 ms by default: a row lock plus commit,
 * about the 100 transactions a second the Spanner document gives a row). Every instance takes {@code rate} values a
 * second once it is ready (seqgen: {@link SequenceRegistry#warmUp(java.util.Collection, Duration)} returned, or gave
 * up after the warm-up bound, as the starter's readiness does; Hibernate and CosId: their first value), all
 * instances start at once, and the measurement window runs from the moment every instance is ready. Reported per
 * scenario: the row's transactions a second and its utilization (time held over time measured), values reserved
 * per transaction, the share of {@code next()} calls over 1 ms, p99.9 and max of {@code next()} in the window, the
 * max of the calls before it (while the fleet starts), caller errors counted from each instance's first call (and
 * those of the window), the share of the values asked that the instances got, the moment the slowest instance was
 * ready ("slowest first value": its first value, or the warm-up bound for a seqgen instance that reported itself
 * ready without it) against N x service time + 20 %, the seqgen instances that did so, and how late the values came
 * after the moment each was due (the latest, and how many more than 5 s late: see {@link Histogram#recordLateness}).
 * The console also prints the slowest instance's statistics and, on the simulated row, where the start-up's time went
 * until that instance was ready ({@link SimulatedRow#timeline}: holding the row, handing it on, the row idle).
 *
 * <pre>{@code
 * java -cp jmh-benchmarks/target/benchmarks.jar dev.seqgen.jmh.FleetBenchmark \
 *     --scenarios=SEQGEN:1,SEQGEN:1000,COSID:1000,HIBERNATE_POOLED:1,HIBERNATE_POOLED:64 \
 *     --rate=1000 --service=10 --measure=60 --out=jmh-benchmarks/results/fleet
 * }</pre>
 *
 * The warm-up bound ({@code --warm-up-bound}, seconds, printed with the results) is the longest a seqgen instance's
 * warm-up waits ({@link SequenceRegistry#warmUp(java.util.Collection, Duration)}: the first block, and for
 * async-batch the second, and a third when the start-up queue asks for it). Its default, 60 s, is the Spring Boot
 * starter's ({@code seqgen.warm-up.timeout}), whose start-up fails when the first block is not in hand by then;
 * here such an instance is counted as "ready without a first block" and takes traffic, so that what it would cost
 * shows.
 *
 * With {@code --store=postgres}, {@code --store=mariadb} or {@code --store=spanner} the row is a real one
 * ({@link ServerRow}): every instance is a registry over a store of its own with one connection of its own, and
 * {@code --service} is the latency injected into each commit, the row lock held.
 *
 * Callers are driven by a pool of threads (at most 64), each serving a slice of the instances every 5 ms with the
 * values due since the last round, timing every call: a call that waits for the row delays the other instances
 * of its slice, which then catch up, so the rate asked is met over time while the latency of each call is its
 * own.
 */
public final class FleetBenchmark {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final int MAX_DRIVERS = 64;
    private static final long ROUND_NANOS = 5 * MS;
    /** Held here: java.util.logging keeps its loggers (and so their levels) only while someone refers to them. */
    private static final Logger SEQGEN_LOGGER = Logger.getLogger("dev.seqgen");
    /** The starter's warm-up bound: {@code seqgen.warm-up.timeout}'s default. */
    static final long STARTER_WARM_UP_BOUND_SECONDS = 60;
    /**
     * How late a value may come after it was due before it counts as "more than 5 s late": a seqgen caller of
     * default settings that asked for it when it was due would have had the acquire timeout's error instead.
     */
    static final long LATE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private FleetBenchmark() {
    }

    /** The competitors: one application instance of each. */
    enum Source {
        /** A seqgen registry with default settings (adaptive ASYNC_BATCH), warmed up before it takes traffic. */
        SEQGEN,
        /** The same, opened by its first caller as before warm-up existed. */
        SEQGEN_NO_WARM_UP,
        /** Hibernate's pooled optimizer, allocation size 50, over a database sequence on the row. */
        HIBERNATE_POOLED,
        /**
         * CosId's {@code SegmentChainId} on the defaults of CosId's Spring Boot starter (step
         * {@link IdSegmentDistributor#DEFAULT_STEP}, safe distance {@link SegmentChainId#DEFAULT_SAFE_DISTANCE},
         * segments that never expire, a {@link PrefetchWorkerExecutorService} of the instance's own with the default
         * 1 s period), whose distributor reserves on the row through the instance's store ({@link RowDistributor}).
         */
        COSID
    }

    /** Where the counter row is: {@code --store=simulated|postgres|mariadb|spanner}. */
    enum StoreKind {
        /** A fair lock held for the service time: the machine's cores are the only limit besides the row. */
        SIMULATED,
        /** PostgreSQL at the {@code SEQGENTEST_POSTGRES_*} settings (as the bulk-insert benchmark reads them). */
        POSTGRES,
        /** MariaDB at the {@code SEQGENTEST_MARIADB_*} settings (as the bulk-insert benchmark reads them). */
        MARIADB,
        /** The Spanner emulator at {@code SPANNER_EMULATOR_HOST}, through the Spanner JDBC driver. */
        SPANNER;

        Row open(long serviceNanos) {
            return switch (this) {
                case SIMULATED -> new SimulatedRow(serviceNanos);
                case POSTGRES -> new ServerRow(BulkDatabase.POSTGRES.url(""), BulkDatabase.POSTGRES.user(),
                        BulkDatabase.POSTGRES.password(), serviceNanos, () -> { });
                case MARIADB -> new ServerRow(BulkDatabase.MARIADB.url(""), BulkDatabase.MARIADB.user(),
                        BulkDatabase.MARIADB.password(), serviceNanos, () -> { });
                case SPANNER -> {
                    if (!"false".equals(System.getenv("GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW"))) {
                        throw new IllegalArgumentException("--store=spanner: export"
                                + " GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS=false and"
                                + " GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW=false first");
                    }
                    String host = System.getenv().getOrDefault("SPANNER_EMULATOR_HOST", "localhost:9010");
                    yield new ServerRow("jdbc:cloudspanner://" + host + "/projects/seqgen-bench/instances/seqgen-bench"
                            + "/databases/fleet?autoConfigEmulator=true", null, null, serviceNanos,
                            // The driver keeps its Spanner clients, and so the JVM, for a minute after use.
                            SpannerPool::closeSpannerPool);
                }
            };
        }
    }

    /**
     * What a row has served so far: its transactions, the values they reserved, and the time the row was held (-1
     * where it cannot be seen; {@code busyIsLowerBound} where only a part of it can).
     */
    record Reading(long transactions, long values, long busyNanos, boolean busyIsLowerBound) {
    }

    /** The counter row of one scenario and what it saw. */
    interface Row extends AutoCloseable {

        /** The sequence the instances share. */
        String sequence();

        /** The store of one more instance: the row itself, or a store with a connection of the instance's own. */
        SequenceStore storeOfInstance();

        /** What the row has served so far. */
        Reading read();

        @Override
        void close();
    }

    /**
     * One counter row: a transaction takes the row's fair lock (a row lock queues its waiters in order) and holds
     * it for the service time.
     */
    static final class SimulatedRow implements SequenceStore, Row {

        /** How many transactions the start-up timeline records. */
        private static final int TIMELINE = 1 << 16;

        private final ReentrantLock lock = new ReentrantLock(true);
        private final long serviceNanos;
        /** Guarded by {@link #lock}. */
        private long next = 1;
        final LongAdder transactions = new LongAdder();
        final LongAdder values = new LongAdder();
        final LongAdder busyNanos = new LongAdder();
        /** The first transactions' start and end, and whether a waiter was queued at the end; guarded by the lock. */
        private final long[] starts = new long[TIMELINE];
        private final long[] ends = new long[TIMELINE];
        private final boolean[] waiterAtEnd = new boolean[TIMELINE];
        private int recorded;

        SimulatedRow(long serviceNanos) {
            this.serviceNanos = serviceNanos;
        }

        /** One transaction: returns the row's value and moves it forward by {@code count}. */
        long transaction(long count) {
            return transaction((waited, ahead, behind) -> count)[0];
        }

        /**
         * One transaction whose count {@code sizing} chooses while the row is held, from the fair lock's queue (as a
         * database's lock table shows it): returns the row's value and the count.
         */
        long[] transaction(Sizing sizing) {
            int ahead = lock.getQueueLength() + (lock.isLocked() ? 1 : 0);
            long asked = System.nanoTime();
            lock.lock();
            try {
                long start = System.nanoTime();
                long count = sizing.size(start - asked, ahead, lock.getQueueLength());
                Pause.nanos(serviceNanos);
                long first = next;
                next += count;
                transactions.increment();
                values.add(count);
                long end = System.nanoTime();
                busyNanos.add(end - start);
                if (recorded < TIMELINE) {
                    starts[recorded] = start;
                    ends[recorded] = end;
                    waiterAtEnd[recorded++] = lock.hasQueuedThreads();
                }
                return new long[] {first, count};
            } finally {
                lock.unlock();
            }
        }

        /**
         * Where the start-up's time went, from {@code begin} to {@code readyAt} (the slowest instance ready), over the
         * transactions that ended by then; null if none did.
         */
        Timeline timeline(long begin, long readyAt) {
            lock.lock();
            try {
                int n = 0;
                long held = 0;
                long handOff = 0;
                long maxHandOff = 0;
                long idle = 0;
                long maxIdle = 0;
                while (n < recorded && ends[n] <= readyAt) {
                    held += ends[n] - starts[n];
                    if (n > 0) {
                        long gap = starts[n] - ends[n - 1];
                        if (waiterAtEnd[n - 1]) {
                            handOff += gap;
                            maxHandOff = Math.max(maxHandOff, gap);
                        } else {
                            idle += gap;
                            maxIdle = Math.max(maxIdle, gap);
                        }
                    }
                    n++;
                }
                return n == 0 ? null : new Timeline(readyAt - begin, n, starts[0] - begin, held, handOff, maxHandOff,
                        idle, maxIdle, readyAt - ends[n - 1]);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public ReservedRange reserveSized(String sequence, Sizing sizing, long maxValue) {
            long[] taken = transaction(sizing);
            return new ReservedRange(taken[0], taken[0] + taken[1]);
        }

        @Override
        public int queuedAt(String sequence) {
            return lock.getQueueLength();
        }

        @Override
        public String sequence() {
            return "orders";
        }

        @Override
        public SequenceStore storeOfInstance() {
            return this;
        }

        @Override
        public Reading read() {
            return new Reading(transactions.sum(), values.sum(), busyNanos.sum(), false);
        }

        @Override
        public void close() {
        }

        @Override
        public String name() {
            return "simulated row";
        }

        @Override
        public void createSequence(String sequence, long initialValue) {
        }

        @Override
        public ReservedRange reserve(String sequence, long count, long maxValue) {
            long first = transaction(count);
            return new ReservedRange(first, first + count);
        }

        @Override
        public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
            throw new UnsupportedOperationException("the simulated row has no caller transactions");
        }

        @Override
        public OptionalLong nextValue(String sequence) {
            lock.lock();
            try {
                return OptionalLong.of(next);
            } finally {
                lock.unlock();
            }
        }

        /** Gives back without the service time: close runs after the measurement. */
        @Override
        public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
            lock.lock();
            try {
                if (next != expectedNextValue) {
                    return false;
                }
                next = restoredNextValue;
                return true;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Where a start-up's time went on the simulated row until its slowest instance was ready ({@code total}): before
     * the first transaction, holding the row, handing it to a waiter queued when the last transaction ended, the row
     * idle with nobody queued, and after the last transaction; nanoseconds.
     */
    record Timeline(long total, int transactions, long before, long held, long handedOn, long longestHandOff,
            long idle, long longestIdle, long after) {

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "start-up timeline to the slowest ready (%.2f s): %d transactions;"
                    + " %.2f s before the first, %.2f s holding the row, %.2f s handing it on (max %.1f ms), %.2f s"
                    + " idle with nobody queued (max %.1f ms), %.2f s after the last", total / 1e9, transactions,
                    before / 1e9, held / 1e9, handedOn / 1e9, longestHandOff / 1e6, idle / 1e9, longestIdle / 1e6,
                    after / 1e9);
        }
    }

    /**
     * A row on a real server. Every instance gets a {@link JdbcSequenceStore} over a HikariCP pool of one connection
     * whose commits wait the injected latency first, the row lock held ({@link CommitLatencyDataSource}); each
     * scenario takes a sequence of its own, created before the fleet starts, so that no scenario starts from another's
     * kept ranges. Transactions are the commits of the instances' connections, values the row's advance (read on a
     * connection of its own). How long the server held the row is not visible from here: the injected latency is
     * reported as a lower bound of it, and nothing where none is injected.
     */
    static final class ServerRow implements Row {

        private final HikariConfig connection;
        private final long latencyNanos;
        private final String sequence = "fleet_" + Long.toString(System.currentTimeMillis(), 36);
        private final List<HikariDataSource> pools = new ArrayList<>();
        private final List<CommitLatencyDataSource> connections = new ArrayList<>();
        private final JdbcSequenceStore probe;
        private final Runnable afterClose;

        ServerRow(String url, String user, String password, long latencyNanos, Runnable afterClose) {
            this.connection = new HikariConfig();
            connection.setJdbcUrl(url);
            connection.setUsername(user);
            connection.setPassword(password);
            connection.setMaximumPoolSize(1);
            this.latencyNanos = latencyNanos;
            this.afterClose = afterClose;
            this.probe = JdbcSequenceStore.builder(pool()).build();
            probe.createSequence(sequence, 1);
        }

        private HikariDataSource pool() {
            HikariConfig config = new HikariConfig();
            connection.copyStateTo(config);
            config.setPoolName("fleet-" + pools.size());
            HikariDataSource pool = new HikariDataSource(config);
            pools.add(pool);
            return pool;
        }

        @Override
        public String sequence() {
            return sequence;
        }

        @Override
        public SequenceStore storeOfInstance() {
            CommitLatencyDataSource connection = new CommitLatencyDataSource(pool(), latencyNanos);
            connections.add(connection);
            return JdbcSequenceStore.builder(connection).build();
        }

        @Override
        public Reading read() {
            long commits = connections.stream().mapToLong(CommitLatencyDataSource::commits).sum();
            return new Reading(commits, probe.nextValue(sequence).orElseThrow() - 1,
                    latencyNanos > 0 ? commits * latencyNanos : -1, true);
        }

        @Override
        public void close() {
            pools.forEach(HikariDataSource::close);
            afterClose.run();
        }
    }

    /** One application instance: started once (its first value or block), then asked for values. */
    interface Instance extends AutoCloseable {

        /**
         * Gets the instance ready to take traffic; blocks until it is.
         *
         * @return whether it holds its first values: false for a seqgen instance whose warm-up gave up after the
         *     warm-up bound, which then reports itself ready without them, as the starter does
         */
        boolean start();

        long next();

        /** Calls that waited for the row (seqgen counts them); -1 where the source does not say. */
        long waits();

        /** What the instance holds, for the report of a failed call. */
        default String describe() {
            return "";
        }

        @Override
        void close();
    }

    /**
     * A latency histogram of one driver thread: log-linear buckets, 8 per power of two (12.5 % wide); beside it,
     * how late the values came after they were due ({@link #recordLateness}).
     */
    static final class Histogram {

        final long[] buckets = new long[512];
        long count;
        long over1ms;
        long max;
        /** The latest a value came after the moment it was due. */
        long maxLateness;
        /** Values that came more than {@link FleetBenchmark#LATE_NANOS} after they were due. */
        long late;

        void record(long nanos) {
            buckets[index(nanos)]++;
            count++;
            if (nanos > MS) {
                over1ms++;
            }
            max = Math.max(max, nanos);
        }

        /**
         * Records how long after its due moment a value came. A driver serves its instances one call at a time, so a
         * call that waits delays the calls due meanwhile on the other instances of its slice; their own latency
         * looks short, their lateness does not (each instance of a real fleet has callers of its own).
         */
        void recordLateness(long nanos) {
            maxLateness = Math.max(maxLateness, nanos);
            if (nanos > LATE_NANOS) {
                late++;
            }
        }

        void add(Histogram other) {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] += other.buckets[i];
            }
            count += other.count;
            over1ms += other.over1ms;
            max = Math.max(max, other.max);
            maxLateness = Math.max(maxLateness, other.maxLateness);
            late += other.late;
        }

        static int index(long nanos) {
            long value = Math.max(0, nanos);
            if (value < 8) {
                return (int) value;
            }
            int exponent = 63 - Long.numberOfLeadingZeros(value);
            int sub = (int) ((value >> (exponent - 3)) & 7);
            return (exponent - 2) * 8 + sub;
        }

        /** The upper bound of the bucket that holds the given percentile. */
        long percentile(double percent) {
            long rank = (long) Math.ceil(count * percent / 100);
            long seen = 0;
            for (int i = 0; i < buckets.length; i++) {
                seen += buckets[i];
                if (seen >= rank && buckets[i] > 0) {
                    if (i < 8) {
                        return i;
                    }
                    int exponent = i / 8 + 2;
                    long low = (8L + i % 8) << (exponent - 3);
                    return Math.min(max, low + (1L << (exponent - 3)) - 1);
                }
            }
            return max;
        }
    }

    /** What one scenario measured. */
    record Result(StoreKind store, Source source, int instances, int rate, long serviceMillis, double windowSeconds,
            long transactions, long busyNanos, long valuesReserved, Histogram calls, Histogram startUpCalls, long waits,
            long errors, long windowErrors, long startErrors, long served, long asked, long slowestFirstNanos,
            int notReady, long readyWithoutBlock, long startTransactions, long startBusyNanos,
            boolean busyIsLowerBound) {

        /** The mean time the row was held per transaction before the window: the start-up's service time. */
        double startHoldMillis() {
            return startTransactions == 0 || startBusyNanos < 0 ? 0 : startBusyNanos / 1e6 / startTransactions;
        }

        /** The row's utilization in per cent, "≥" where only a lower bound is known, "—" where none is. */
        String utilization() {
            return busyNanos < 0 ? "—" : String.format(Locale.ROOT, "%s%.1f %%", busyIsLowerBound ? "≥ " : "",
                    100 * busyNanos / (windowSeconds * 1e9));
        }
    }

    /**
     * Runs the scenarios.
     *
     * @param args {@code --scenarios=SOURCE:N,...}, {@code --store=simulated|postgres|mariadb|spanner} (the row of
     *     every scenario), {@code --rate=values per second per instance}, {@code --service=ms per transaction} (on a
     *     server: injected into every commit), {@code --measure=seconds}, {@code --start-limit=seconds} (the
     *     longest the fleet may take to get ready), {@code --warm-up-bound=seconds} (the longest a seqgen instance's
     *     warm-up waits; default 60, the starter's {@code seqgen.warm-up.timeout}), {@code --settle=seconds} (how
     *     long after every instance is ready the window opens; default 0: what comes before it is the start-up),
     *     {@code --out=prefix} (writes prefix.md)
     * @throws Exception if a scenario cannot run or the report cannot be written
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of("scenarios",
                "SEQGEN:1,SEQGEN:1000,SEQGEN:2000,HIBERNATE_POOLED:1,HIBERNATE_POOLED:64", "rate", "1000", "service",
                "10", "measure", "180", "start-limit", "120", "out", ""));
        options.put("settle", "0");
        options.put("store", "simulated");
        options.put("warm-up-bound", Long.toString(STARTER_WARM_UP_BOUND_SECONDS));
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (!arg.startsWith("--") || equals < 0 || !options.containsKey(arg.substring(2, equals))) {
                throw new IllegalArgumentException("unknown option " + arg + "; options: " + options.keySet()
                        + " as --name=value");
            }
            options.put(arg.substring(2, equals), arg.substring(equals + 1));
        }
        // Thousands of registries (and on a server as many pools) each say hello at INFO; warnings still show.
        SEQGEN_LOGGER.setLevel(Level.WARNING);
        System.setProperty("org.slf4j.simpleLogger.log.com.zaxxer.hikari", "warn");
        // CosId says hello at INFO for every prefetch job, and again whenever a prefetch distance moves.
        System.setProperty("org.slf4j.simpleLogger.log.me.ahoo.cosid", "warn");
        StoreKind store = StoreKind.valueOf(options.get("store").toUpperCase(Locale.ROOT));
        int rate = Integer.parseInt(options.get("rate"));
        long service = Long.parseLong(options.get("service"));
        Duration measure = Duration.ofSeconds(Long.parseLong(options.get("measure")));
        Duration startLimit = Duration.ofSeconds(Long.parseLong(options.get("start-limit")));
        Duration warmUpBound = Duration.ofSeconds(Long.parseLong(options.get("warm-up-bound")));
        Duration settle = Duration.ofSeconds(Long.parseLong(options.get("settle")));
        String bound = warmUpBound(warmUpBound);
        System.out.println(bound);
        List<Result> results = new ArrayList<>();
        for (String scenario : options.get("scenarios").split(",")) {
            String[] parts = scenario.trim().split(":");
            Result result = run(store, Source.valueOf(parts[0]), Integer.parseInt(parts[1]), rate, service, measure,
                    startLimit, warmUpBound, settle);
            results.add(result);
            System.out.println(line(result));
        }
        String table = bound + System.lineSeparator() + System.lineSeparator() + table(results);
        System.out.println(System.lineSeparator() + table);
        if (!options.get("out").isEmpty()) {
            Path out = Path.of(options.get("out") + ".md");
            if (out.getParent() != null) {
                Files.createDirectories(out.getParent());
            }
            Files.writeString(out, table);
            System.out.println("wrote " + out);
        }
    }

    /** The warm-up bound as the output states it. */
    static String warmUpBound(Duration bound) {
        return String.format(Locale.ROOT, "warm-up bound: %d s (a seqgen instance's warm-up waits at most this long;"
                + " one whose first block is not in hand by then is counted ready without it; the Spring Boot starter"
                + " waits %d s, seqgen.warm-up.timeout's default, and fails the start-up instead)", bound.toSeconds(),
                STARTER_WARM_UP_BOUND_SECONDS);
    }

    static Result run(StoreKind store, Source source, int count, int rate, long serviceMillis, Duration measure,
            Duration startLimit, Duration warmUpBound, Duration settle) throws InterruptedException, IOException {
        Row row = store.open(serviceMillis * MS);
        ExecutorService background = Executors.newCachedThreadPool(threads("fleet-refill"));
        ExecutorService starters = Executors.newCachedThreadPool(threads("fleet-start"));
        List<Instance> instances = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            instances.add(instance(source, row, background, warmUpBound, i));
        }
        AtomicLongArray readyAt = new AtomicLongArray(count);
        AtomicInteger ready = new AtomicInteger();
        LongAdder startErrors = new LongAdder();
        LongAdder readyWithoutBlock = new LongAdder();
        LongAdder errors = new LongAdder();
        long begin = System.nanoTime();
        for (int i = 0; i < count; i++) {
            int index = i;
            starters.execute(() -> {
                for (;;) {
                    try {
                        if (!instances.get(index).start()) {
                            readyWithoutBlock.increment();
                        }
                        break;
                    } catch (RuntimeException e) {
                        if (startErrors.sum() == 0) {
                            System.err.println("first start-up error: " + e);
                        }
                        startErrors.increment();
                    }
                }
                readyAt.set(index, System.nanoTime());
                ready.incrementAndGet();
            });
        }
        // The callers: every instance takes its values from the moment it is ready.
        int drivers = Math.min(count, MAX_DRIVERS);
        AtomicLongArray window = new AtomicLongArray(new long[] {Long.MAX_VALUE, Long.MAX_VALUE});
        Histogram[] histograms = new Histogram[drivers];
        Histogram[] startUpHistograms = new Histogram[drivers];
        long[] served = new long[drivers];
        long[] asked = new long[drivers];
        Thread[] driverThreads = new Thread[drivers];
        for (int d = 0; d < drivers; d++) {
            int slice = d;
            histograms[d] = new Histogram();
            startUpHistograms[d] = new Histogram();
            driverThreads[d] = new Thread(() -> drive(instances, readyAt, slice, drivers, rate, window,
                    histograms[slice], startUpHistograms[slice], served, asked, errors), "fleet-caller-" + d);
            driverThreads[d].setDaemon(true);
            driverThreads[d].start();
        }
        long startDeadline = begin + startLimit.toNanos();
        while (ready.get() < count && System.nanoTime() < startDeadline) {
            Thread.sleep(10);
        }
        int notReady = count - ready.get();
        long slowest = 0;
        int slowestIndex = 0;
        for (int i = 0; i < count; i++) {
            long took = readyAt.get(i) == 0 ? System.nanoTime() - begin : readyAt.get(i) - begin;
            if (took > slowest) {
                slowest = took;
                slowestIndex = i;
            }
        }
        if (row instanceof SimulatedRow simulated) {
            Timeline timeline = simulated.timeline(begin, begin + slowest);
            System.out.println(timeline == null ? "start-up timeline: no transaction before the slowest was ready"
                    : timeline);
        }
        System.out.println("slowest instance " + slowestIndex + ": " + instances.get(slowestIndex).describe());
        Thread.sleep(settle.toMillis());
        Reading start = row.read();
        long errors0 = errors.sum();
        long waits0 = waits(instances);
        long windowStart = System.nanoTime();
        window.set(1, windowStart + measure.toNanos());
        window.set(0, windowStart);
        Thread.sleep(measure.toMillis());
        Reading end = row.read();
        long transactions = end.transactions() - start.transactions();
        long busy = start.busyNanos() < 0 ? -1 : end.busyNanos() - start.busyNanos();
        long values = end.values() - start.values();
        long windowErrors = errors.sum() - errors0;
        long windowWaits = waits0 < 0 ? -1 : waits(instances) - waits0;
        for (Thread driver : driverThreads) {
            driver.join(TimeUnit.MINUTES.toMillis(1));
        }
        Histogram calls = new Histogram();
        Histogram startUpCalls = new Histogram();
        long servedTotal = 0;
        long askedTotal = 0;
        for (int d = 0; d < drivers; d++) {
            calls.add(histograms[d]);
            startUpCalls.add(startUpHistograms[d]);
            servedTotal += served[d];
            askedTotal += asked[d];
        }
        starters.shutdownNow();
        for (Instance instance : instances) {
            instance.close();
        }
        background.shutdownNow();
        row.close();
        // Every caller error from the first call on (the drivers have stopped): those of the start-up count too.
        return new Result(store, source, count, rate, serviceMillis, measure.toNanos() / 1e9, transactions, busy, values,
                calls, startUpCalls, windowWaits, errors.sum(), windowErrors, startErrors.sum(), servedTotal,
                askedTotal, slowest, notReady, readyWithoutBlock.sum(), start.transactions(), start.busyNanos(),
                start.busyIsLowerBound());
    }

    /**
     * The loop of one caller thread over its slice of the instances: every round, each ready instance is asked for
     * the values due since it became ready, each call timed; calls that start inside the window are recorded in
     * {@code histogram}, earlier ones (while the fleet starts) in {@code startUp}. Every failed call counts in
     * {@code errors}, from the first call on.
     */
    private static void drive(List<Instance> instances, AtomicLongArray readyAt, int slice, int drivers, int rate,
            AtomicLongArray window, Histogram histogram, Histogram startUp, long[] served, long[] asked,
            LongAdder errors) {
        int mine = (instances.size() - slice + drivers - 1) / drivers;
        long[] taken = new long[mine];
        for (;;) {
            long round = System.nanoTime();
            long windowEnd = window.get(1);
            if (round >= windowEnd) {
                return;
            }
            long windowStart = window.get(0);
            for (int k = 0; k < mine; k++) {
                int index = slice + k * drivers;
                long from = readyAt.get(index);
                if (from == 0) {
                    continue;
                }
                long due = (long) ((round - from) / 1e9 * rate) - taken[k];
                for (long i = 0; i < due; i++) {
                    long start = System.nanoTime();
                    if (start >= windowEnd) {
                        break; // a caller far behind (Hibernate's on a saturated row) stops with the window
                    }
                    boolean ok = true;
                    try {
                        instances.get(index).next();
                    } catch (RuntimeException e) {
                        ok = false;
                        if (errors.sum() < 3) {
                            System.err.println("caller error of instance " + index + ", ready "
                                    + (System.nanoTime() - from) / MS + " ms before: " + e + " "
                                    + instances.get(index).describe());
                        }
                        errors.increment();
                    }
                    long end = System.nanoTime();
                    taken[k]++;
                    // The n-th value of an instance is due n / rate seconds after it became ready.
                    long lateness = end - (from + (long) (taken[k] * 1e9 / rate));
                    if (start >= windowStart && start < windowEnd) {
                        histogram.record(end - start);
                        histogram.recordLateness(lateness);
                        if (ok) {
                            served[slice]++;
                        }
                    } else if (start < windowStart) {
                        startUp.record(end - start);
                        startUp.recordLateness(lateness);
                    }
                }
            }
            LockSupport.parkNanos(ROUND_NANOS);
            // The values asked of this slice within the window, whether or not the calls came.
            if (windowStart != Long.MAX_VALUE) {
                long askedNow = 0;
                long until = Math.min(System.nanoTime(), windowEnd);
                for (int k = 0; k < mine; k++) {
                    long readySince = readyAt.get(slice + k * drivers);
                    long from = Math.max(readySince, windowStart);
                    if (readySince != 0 && until > from) {
                        askedNow += (long) ((until - from) / 1e9 * rate);
                    }
                }
                asked[slice] = askedNow;
            }
        }
    }

    private static long waits(List<Instance> instances) {
        long sum = 0;
        for (Instance instance : instances) {
            long waits = instance.waits();
            if (waits < 0) {
                return -1;
            }
            sum += waits;
        }
        return sum;
    }

    /** The {@code index}th instance of {@code source} on the row; started by its {@link Instance#start()}. */
    static Instance instance(Source source, Row row, ExecutorService background, Duration warmUpBound, int index) {
        SequenceStore store = row.storeOfInstance();
        String sequence = row.sequence();
        return switch (source) {
            case SEQGEN, SEQGEN_NO_WARM_UP -> new Instance() {
                private final SequenceRegistry registry = SequenceRegistry.builder(store).executor(background).build();
                private volatile Sequence orders;

                @Override
                public boolean start() {
                    if (source == Source.SEQGEN) {
                        boolean inHand = true;
                        try {
                            registry.warmUp(List.of(sequence), warmUpBound);
                        } catch (SequenceUnavailableException late) {
                            // As the starter's SeqgenWarmUp: warned of, and the instance reports itself ready; the
                            // reservation goes on in the background and its first callers wait for it.
                            inHand = false;
                        }
                        orders = registry.sequence(sequence);
                        return inHand;
                    }
                    Sequence opened = registry.sequence(sequence);
                    opened.next();
                    orders = opened;
                    return true;
                }

                @Override
                public long next() {
                    return orders.next();
                }

                @Override
                public long waits() {
                    Sequence opened = orders;
                    return opened == null ? 0 : opened.stats().waits();
                }

                @Override
                public String describe() {
                    Sequence opened = orders;
                    return opened == null ? "" : opened.stats().toString();
                }

                @Override
                public void close() {
                    registry.close();
                }
            };
            case HIBERNATE_POOLED -> new Instance() {
                private final HibernateOptimizerSource optimizer = new HibernateOptimizerSource(
                        StandardOptimizerDescriptor.POOLED, 50,
                        () -> store.reserve(sequence, 50, Long.MAX_VALUE).first());

                @Override
                public boolean start() {
                    optimizer.next();
                    return true;
                }

                @Override
                public long next() {
                    return optimizer.next();
                }

                @Override
                public long waits() {
                    return -1;
                }

                @Override
                public void close() {
                }
            };
            case COSID -> new Instance() {
                /** One job on it, so one worker thread runs, whatever the pool size (the starter's default). */
                private final PrefetchWorkerExecutorService prefetch = new PrefetchWorkerExecutorService(
                        PrefetchWorkerExecutorService.DEFAULT_PREFETCH_PERIOD,
                        Runtime.getRuntime().availableProcessors(), false);
                private volatile SegmentChainId chain;

                /** Built here, not with the instance: its prefetch job reserves on the row as soon as it exists. */
                @Override
                public boolean start() {
                    SegmentChainId started = chain;
                    if (started == null) {
                        started = new SegmentChainId(IdSegment.TIME_TO_LIVE_FOREVER,
                                SegmentChainId.DEFAULT_SAFE_DISTANCE, new RowDistributor(store, sequence, index),
                                prefetch);
                        chain = started;
                    }
                    started.generate();
                    return true;
                }

                @Override
                public long next() {
                    return chain.generate();
                }

                @Override
                public long waits() {
                    return -1;
                }

                @Override
                public void close() {
                    prefetch.shutdown();
                }
            };
        };
    }

    /**
     * CosId's distributor on the row: {@link #nextMaxId} adds {@code step} to the row atomically through the
     * instance's store, the reservation seqgen's instances make, and returns the new maximum (the last value of the
     * range, which CosId hands out from {@code maxId - step + 1}).
     */
    static final class RowDistributor implements IdSegmentDistributor {

        private final SequenceStore store;
        private final String sequence;
        private final String name;

        RowDistributor(SequenceStore store, String sequence, int instance) {
            this.store = store;
            this.sequence = sequence;
            this.name = sequence + "-" + instance;
        }

        @Override
        public String getNamespace() {
            return "fleet";
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public long getStep() {
            return DEFAULT_STEP;
        }

        @Override
        public long nextMaxId(long step) {
            return store.reserve(sequence, step, Long.MAX_VALUE).end() - 1;
        }
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger number = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(null, task, prefix + "-" + number.incrementAndGet(), 256 * 1024);
            thread.setDaemon(true);
            return thread;
        };
    }

    static String line(Result r) {
        return String.format(Locale.ROOT, "%s x %d on %s: %.1f tx/s (%s), %,.0f values/tx, %d calls, %.4f %% over 1 ms,"
                + " p99.9 %s, max %s, waits %s, caller errors %d from the first call (%d in the window), served %.1f %%,"
                + " slowest first value %.2f s%s", r.source(), r.instances(), r.store().name().toLowerCase(Locale.ROOT),
                r.transactions() / r.windowSeconds(), r.utilization(),
                r.transactions() == 0 ? 0.0 : (double) r.valuesReserved() / r.transactions(), r.calls().count,
                r.calls().count == 0 ? 0.0 : 100.0 * r.calls().over1ms / r.calls().count,
                duration(r.calls().percentile(99.9)), duration(r.calls().max), waits(r), r.errors(), r.windowErrors(),
                r.asked() == 0 ? 0.0 : 100.0 * r.served() / r.asked(), r.slowestFirstNanos() / 1e9,
                r.notReady() > 0 ? " (" + r.notReady() + " not ready)" : "") + String.format(Locale.ROOT,
                "; latest value %s after it was due (%d more than 5 s late); start-up: %d calls before the window (max"
                + " %s, latest value %s after it was due, %d more than 5 s late), %d ready without a first block, %d"
                + " failed starts retried, %d transactions holding the row %.2f ms each",
                duration(r.calls().maxLateness), r.calls().late, r.startUpCalls().count,
                r.startUpCalls().count == 0 ? "—" : duration(r.startUpCalls().max),
                duration(r.startUpCalls().maxLateness), r.startUpCalls().late, r.readyWithoutBlock(), r.startErrors(),
                r.startTransactions(), r.startHoldMillis());
    }

    static String table(List<Result> results) {
        StringBuilder table = new StringBuilder("| row | source | instances | row tx/s | row utilization | values/tx"
                + " | next() calls | over 1 ms | p99.9 | max | waited for a refill | max before the window"
                + " | latest value after due (before the window) | values > 5 s late"
                + " | caller errors from the first call (in the window) | served of asked | slowest first value (bound)"
                + " | ready without a first block |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Result r : results) {
            table.append(String.format(Locale.ROOT, "| %s | `%s` | %,d | %.1f | %s | %,.0f | %,d | %.4f %% | %s | %s |"
                    + " %s | %s | %s (%s) | %,d | %d (%d) | %.1f %% | %.2f s (%s)%s | %s |%n",
                    r.store().name().toLowerCase(Locale.ROOT), r.source(), r.instances(),
                    r.transactions() / r.windowSeconds(), r.utilization(),
                    r.transactions() == 0 ? 0.0 : (double) r.valuesReserved() / r.transactions(), r.calls().count,
                    r.calls().count == 0 ? 0.0 : 100.0 * r.calls().over1ms / r.calls().count,
                    duration(r.calls().percentile(99.9)), duration(r.calls().max), waits(r),
                    r.startUpCalls().count == 0 ? "—" : duration(r.startUpCalls().max),
                    duration(r.calls().maxLateness), duration(r.startUpCalls().maxLateness),
                    r.calls().late + r.startUpCalls().late, r.errors(), r.windowErrors(), r.asked() == 0 ? 0.0 : 100.0 * r.served() / r.asked(), r.slowestFirstNanos() / 1e9,
                    r.serviceMillis() == 0 ? "—" : String.format(Locale.ROOT, "%.2f s",
                            r.instances() * r.serviceMillis() * 1.2 / 1000), r.notReady() > 0 ? ", " + r.notReady()
                            + " not ready" : "", r.source() == Source.SEQGEN ? Long.toString(r.readyWithoutBlock())
                            : "—"));
        }
        return table.toString();
    }

    private static String waits(Result r) {
        return r.waits() < 0 ? "—" : String.format(Locale.ROOT, "%,d", r.waits());
    }

    private static String duration(long nanos) {
        if (nanos < 10_000) {
            return String.format(Locale.ROOT, "%.2f µs", nanos / 1e3);
        }
        if (nanos < 10 * MS) {
            return String.format(Locale.ROOT, "%.0f µs", nanos / 1e3);
        }
        return String.format(Locale.ROOT, "%,.0f ms", nanos / 1e6);
    }
}
