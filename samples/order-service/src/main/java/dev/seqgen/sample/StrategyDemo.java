package dev.seqgen.sample;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceStats;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * The four strategies side by side on an embedded H2 database: each hands out values to 8 threads, and the
 * demo prints how many it issued, how many store transactions that took, and whether the values are unique
 * (and, for SYNC with a third of the transactions rolled back, gapless).
 *
 * <p>Run: {@code ./mvnw -q -B install -DskipTests && ./mvnw -q -B -pl samples/order-service exec:java}
 */
public final class StrategyDemo {

    private static final int THREADS = 8;
    private static final int VALUES_PER_THREAD = 5_000;

    private StrategyDemo() {
    }

    public static void main(String[] args) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:h2:mem:seqgen-demo;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=30000");
        config.setUsername("sa");
        config.setMaximumPoolSize(THREADS + 2);
        try (HikariDataSource dataSource = new HikariDataSource(config)) {
            JdbcSequenceStore store = JdbcSequenceStore.builder(dataSource).build();
            System.out.printf("seqgen on embedded %s, table %s, %d threads x %d values%n%n", store.name(), store.table(),
                    THREADS, VALUES_PER_THREAD);
            System.out.printf("%-12s %10s %14s %10s %12s  %s%n", "strategy", "values", "store tx", "values/s",
                    "unique", "values in row order");
            for (Strategy strategy : Strategy.values()) {
                run(store, dataSource, strategy);
            }
            System.out.println();
            System.out.println("SYNC rolled back every third transaction; its committed values are still 1..N without"
                    + " a gap. ASYNC is ordered but leaves a gap per rollback; BATCH and ASYNC_BATCH take one store"
                    + " transaction per block of 1000.");
        }
    }

    private static void run(JdbcSequenceStore store, HikariDataSource dataSource, Strategy strategy) throws Exception {
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(1000).build();
        String name = "demo_" + strategy.name().toLowerCase();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence sequence = registry.sequence(name);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            long start = System.nanoTime();
            List<Future<long[]>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                results.add(pool.submit(() -> take(sequence, dataSource)));
            }
            long[] all = new long[0];
            for (Future<long[]> result : results) {
                long[] part = result.get(5, TimeUnit.MINUTES);
                long[] merged = Arrays.copyOf(all, all.length + part.length);
                System.arraycopy(part, 0, merged, all.length, part.length);
                all = merged;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            Arrays.sort(all);
            boolean unique = true;
            for (int i = 1; i < all.length; i++) {
                unique &= all[i] != all[i - 1];
            }
            boolean gapless = all.length > 0 && all[all.length - 1] - all[0] + 1 == all.length;
            SequenceStats stats = sequence.stats();
            System.out.printf("%-12s %10d %14d %10.0f %12s  %d..%d%s%n", strategy, all.length, stats.reservations(),
                    all.length / seconds, unique ? "yes" : "NO", all[0], all[all.length - 1],
                    gapless ? " (gapless)" : "");
        }
    }

    private static long[] take(Sequence sequence, HikariDataSource dataSource) throws SQLException {
        if (sequence.strategy() != Strategy.SYNC) {
            long[] values = new long[VALUES_PER_THREAD];
            for (int i = 0; i < values.length; i++) {
                values[i] = sequence.next();
            }
            return values;
        }
        // SYNC: the value is taken inside our own transaction; every third one is rolled back.
        long[] committed = new long[VALUES_PER_THREAD];
        int n = 0;
        for (int i = 0; i < VALUES_PER_THREAD * 3 / 2 && n < VALUES_PER_THREAD; i++) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(false);
                long value = sequence.nextInTransaction(connection);
                if (ThreadLocalRandom.current().nextInt(3) == 0) {
                    connection.rollback();
                } else {
                    connection.commit();
                    committed[n++] = value;
                }
            }
        }
        return Arrays.copyOf(committed, n);
    }
}
