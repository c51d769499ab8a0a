package dev.seqgen.jmh.spanner;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.hibernate.SeqgenHibernate;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;

/**
 * What a key costs per JPA insert on Cloud Spanner, three ways, in one run on the emulator: seqgen's
 * {@code bit-reversed} ASYNC_BATCH ids (values from a block in memory, no statement per insert), the column
 * default {@code GET_NEXT_SEQUENCE_VALUE} of a bit-reversed sequence (the insert returns the key), and
 * Hibernate's {@code @SequenceGenerator(allocationSize = 1)} over such a sequence (one query per
 * {@code persist()}). Each way gets a database of its own and the same load: {@code --entities} inserts from
 * {@code --threads} threads in transactions of {@code --per-transaction}, aborted transactions retried whole;
 * then the keys are checked to be unique. The ways run one after the other, {@code --rounds} times.
 *
 * <p>The emulator is one process on one machine and runs one read-write transaction at a time: this compares
 * the cost of each way per insert (statements and round trips), not hotspots, which only a multi-split Spanner
 * instance has.
 *
 * <pre>{@code
 * GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS=false GOOGLE_CLOUD_SPANNER_MULTIPLEXED_SESSIONS_FOR_RW=false \
 * java -cp jmh-benchmarks/target/benchmarks.jar dev.seqgen.jmh.spanner.SpannerKeyCost \
 *     --host=localhost:9010 --entities=10000 --threads=8 --per-transaction=10 --rounds=2
 * }</pre>
 */
public final class SpannerKeyCost {

    /** One way of generating keys: its entity, the DDL its table needs, and how to make one. */
    enum Way {
        SEQGEN_BIT_REVERSED("seqgen bit-reversed async-batch", SeqgenKeyed.class, SeqgenKeyed::new,
                "CREATE TABLE SeqgenKeyed (id INT64 NOT NULL, payload STRING(64)) PRIMARY KEY (id)"),
        COLUMN_DEFAULT("column default GET_NEXT_SEQUENCE_VALUE", ColumnDefaultKeyed.class, ColumnDefaultKeyed::new,
                "CREATE SEQUENCE column_default_seq OPTIONS (sequence_kind = 'bit_reversed_positive')",
                "CREATE TABLE ColumnDefaultKeyed (id INT64 NOT NULL DEFAULT (GET_NEXT_SEQUENCE_VALUE(SEQUENCE"
                        + " column_default_seq)), payload STRING(64)) PRIMARY KEY (id)"),
        HIBERNATE_SEQUENCE("@SequenceGenerator(allocationSize = 1)", SequenceKeyed.class, SequenceKeyed::new,
                "CREATE SEQUENCE sequence_keyed_seq OPTIONS (sequence_kind = 'bit_reversed_positive')",
                "CREATE TABLE SequenceKeyed (id INT64 NOT NULL, payload STRING(64)) PRIMARY KEY (id)");

        final String label;
        final Class<? extends Keyed> entity;
        final Function<String, Keyed> create;
        final List<String> ddl;

        Way(String label, Class<? extends Keyed> entity, Function<String, Keyed> create, String... ddl) {
            this.label = label;
            this.entity = entity;
            this.create = create;
            this.ddl = List.of(ddl);
        }
    }

    /** One way's measurement; {@code failure} says why it did not finish, or is null. */
    record Result(Way way, int round, long inserts, double seconds, long retries, long distinctKeys, long rows,
            String failure) {

        double insertsPerSecond() {
            return inserts / seconds;
        }
    }

    /** Attempts of one transaction before its way is reported as not finishing. */
    private static final int MAX_ATTEMPTS = 200;

    private SpannerKeyCost() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of("host", defaultHost(), "entities", "10000",
                "threads", "8", "per-transaction", "10", "rounds", "1"));
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0 || !options.containsKey(arg.substring(2, eq))) {
                System.err.println("unknown argument '" + arg + "'; options: --" + String.join("=, --",
                        options.keySet()) + "=");
                System.exit(2);
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        List<Result> results = run(options.get("host"), Integer.parseInt(options.get("entities")),
                Integer.parseInt(options.get("threads")), Integer.parseInt(options.get("per-transaction")),
                Integer.parseInt(options.get("rounds")));
        System.out.println(table(results));
    }

    private static String defaultHost() {
        String host = System.getenv("SPANNER_EMULATOR_HOST");
        return host == null || host.isBlank() ? "localhost:9010" : host;
    }

    /**
     * Runs every way {@code rounds} times, one after the other.
     *
     * @return the results, in the order run
     * @throws IllegalStateException if a way's keys are not unique
     */
    static List<Result> run(String host, int entities, int threads, int perTransaction, int rounds)
            throws Exception {
        List<Result> results = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (Way way : Way.values()) {
                Result result = run(host, way, round, entities, threads, perTransaction);
                System.err.printf(Locale.ROOT, "round %d, %s: %s%n", round, way.label, result.failure() != null
                        ? "did not finish" : String.format(Locale.ROOT, "%,.1f inserts/s", result.insertsPerSecond()));
                results.add(result);
            }
        }
        return results;
    }

    private static Result run(String host, Way way, int round, int entities, int threads, int perTransaction)
            throws Exception {
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl("jdbc:cloudspanner://" + host + "/projects/seqgen-bench/instances/seqgen-bench/databases/key-"
                + way.name().toLowerCase(Locale.ROOT).replace('_', '-').substring(0, 6) + "-"
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36).substring(0, 8)
                + "?autoConfigEmulator=true");
        pool.setMaximumPoolSize(threads + 2);
        try (HikariDataSource dataSource = new HikariDataSource(pool)) {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
                for (String ddl : way.ddl) {
                    statement.execute(ddl);
                }
            }
            Configuration configuration = new Configuration().addAnnotatedClass(way.entity);
            configuration.getProperties().put(AvailableSettings.DATASOURCE, dataSource);
            configuration.getProperties().put(AvailableSettings.DIALECT, "org.hibernate.dialect.SpannerDialect");
            configuration.getProperties().put(AvailableSettings.HBM2DDL_AUTO, "none");
            configuration.getProperties().put(SeqgenHibernate.TABLE, "seqgen_sequences");
            long retries;
            double seconds;
            try (SessionFactory sessionFactory = configuration.buildSessionFactory()) {
                // One unmeasured insert: the sequence (and seqgen's first block) exists before the clock starts.
                sessionFactory.inTransaction(session -> session.persist(way.create.apply("warm-up")));
                LongAdder retried = new LongAdder();
                int transactionsPerThread = Math.max(1, entities / threads / perTransaction);
                ExecutorService executor = Executors.newFixedThreadPool(threads);
                try {
                    long start = System.nanoTime();
                    List<Future<?>> callers = new ArrayList<>();
                    for (int t = 0; t < threads; t++) {
                        callers.add(executor.submit(() -> {
                            for (int i = 0; i < transactionsPerThread; i++) {
                                insertRetryingAborts(sessionFactory, way, perTransaction, retried);
                            }
                            return null;
                        }));
                    }
                    try {
                        for (Future<?> caller : callers) {
                            caller.get();
                        }
                    } catch (java.util.concurrent.ExecutionException e) {
                        // A transaction aborted more often than the retries allow: the emulator's one read-write
                        // transaction at a time, under this load. Reported, not hidden.
                        return new Result(way, round, 0, (System.nanoTime() - start) / 1e9, retried.sum(), 0, 0,
                                String.valueOf(e.getCause()));
                    }
                    seconds = (System.nanoTime() - start) / 1e9;
                } finally {
                    executor.shutdownNow();
                }
                retries = retried.sum();
                long inserted = (long) transactionsPerThread * threads * perTransaction;
                long[] keys = countKeys(dataSource, way);
                if (keys[0] != keys[1] || keys[0] != inserted + 1) {
                    throw new IllegalStateException(way.label + ": " + keys[0] + " rows, " + keys[1]
                            + " distinct keys, " + (inserted + 1) + " inserted");
                }
                return new Result(way, round, inserted, seconds, retries, keys[1], keys[0], null);
            }
        }
    }

    private static void insertRetryingAborts(SessionFactory sessionFactory, Way way, int perTransaction,
            LongAdder retried) {
        for (int attempt = 1; ; attempt++) {
            try {
                sessionFactory.inTransaction(session -> {
                    for (int i = 0; i < perTransaction; i++) {
                        session.persist(way.create.apply("payload"));
                    }
                });
                return;
            } catch (RuntimeException e) {
                if (!aborted(e) || attempt == MAX_ATTEMPTS) {
                    throw e;
                }
                retried.increment();
            }
        }
    }

    private static boolean aborted(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == 10) {
                return true;
            }
            if (t.getClass().getSimpleName().contains("Aborted") || String.valueOf(t.getMessage()).contains("ABORTED")) {
                return true;
            }
        }
        return false;
    }

    /** {rows, distinct keys} of the way's table. */
    private static long[] countKeys(HikariDataSource dataSource, Way way) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT COUNT(*), COUNT(DISTINCT id) FROM "
                        + way.entity.getSimpleName())) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    /** The results as a Markdown table, with each way's rate against seqgen's in the same round. */
    static String table(List<Result> results) {
        StringBuilder table = new StringBuilder("| round | keys | inserts | seconds | inserts/s | aborts retried"
                + " | keys unique | seqgen / this |\n|---:|---|---:|---:|---:|---:|---|---:|\n");
        for (Result result : results) {
            if (result.failure() != null) {
                table.append(String.format(Locale.ROOT, "| %d | %s | did not finish in %.1f s: %,d aborts retried,"
                        + " then %s | | | | | |%n", result.round(), result.way().label, result.seconds(),
                        result.retries(), result.failure()));
                continue;
            }
            double seqgen = results.stream().filter(r -> r.round() == result.round()
                    && r.way() == Way.SEQGEN_BIT_REVERSED).mapToDouble(Result::insertsPerSecond).findFirst()
                    .orElse(Double.NaN);
            table.append(String.format(Locale.ROOT, "| %d | %s | %,d | %.1f | %,.1f | %,d | %s | %.2f× |%n",
                    result.round(), result.way().label, result.inserts(), result.seconds(),
                    result.insertsPerSecond(), result.retries(),
                    result.distinctKeys() == result.rows() ? "yes (" + result.rows() + " rows)" : "NO",
                    seqgen / result.insertsPerSecond()));
        }
        return table.toString();
    }
}
