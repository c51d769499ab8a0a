package dev.seqgen.jmh;

import dev.seqgen.jmh.bulk.BulkDatabase;
import dev.seqgen.jmh.series.Api;
import dev.seqgen.jmh.series.Counter;
import dev.seqgen.jmh.series.SeriesFixture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Gapless numbers per tenant beside one shared row: invoices per second that 16 threads commit, each transaction
 * inserting one invoice of a tenant picked uniformly at random among {@code tenants}, its number taken by
 * {@code @SeqgenNumber(strategy = SYNC)} on an entity of Hibernate's partitioned multi-tenancy ({@code @TenantId}).
 *
 * <p>{@code counter=PER_TENANT} counts each tenant's numbers in a series of its own (a row per tenant, the default of
 * {@code @SeqgenNumber} on a {@code @TenantId} entity); {@code counter=SHARED} counts every tenant's numbers on one row
 * ({@code perTenant = false}). The load is the same; only the row differs. A SYNC increment holds its row's lock from
 * the flush to the commit, so on one row the transactions run one at a time; with a row per tenant, two transactions
 * wait for each other only when they draw the same tenant.
 *
 * <p>Latency ({@code latencyMillis}, 2 by default): every commit waits that long before it runs, its locks held
 * ({@link dev.seqgen.jmh.table.CommitLatencyDataSource}, as the strategy table's {@code --store-latency}): a database
 * further away, or one that waits for its replicas. The other statements run at the database's own speed.
 *
 * <p>{@code poolAutoCommit} ({@code true} by default, HikariCP's default): Hibernate turns auto-commit off and on
 * around every transaction, which MariaDB's driver sends as a statement each way; {@code false} keeps it off in the
 * pool and tells Hibernate so ({@code hibernate.connection.provider_disables_autocommit}), the setting that saves
 * those two round trips for both counters alike.
 *
 * <p>{@code api=HIBERNATE} (the default) is the realistic shape: a session of the tenant, {@code persist()},
 * {@code commit()}. {@code api=JDBC} takes the same number through seqgen's core API in a plain JDBC transaction
 * ({@code SequenceRegistry.series(name, tenant).nextInTransaction(connection)}, INSERT, commit), to tell Hibernate's
 * cost from the lock's.
 *
 * <p>Every tenant takes one number before the clock starts (its series' row created and moved above its rows), and
 * at the end of each trial every series is checked to hold the numbers 1 to n, each once; a gap fails the trial.
 * Databases ({@code database}): {@code postgres}, {@code mariadb} (settings as {@link BulkInsertBenchmark}), {@code h2}.
 *
 * <p>Target (issue 50): at 100 tenants the per-tenant series serve at least 10 times the shared row's rate.
 *
 * <pre>{@code
 * java -jar jmh-benchmarks/target/benchmarks.jar SeriesBenchmark -f 1 -wi 4 -w 5s -i 5 -r 5s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(SeriesBenchmark.THREADS)
public class SeriesBenchmark {

    /** Benchmark threads, each running its transactions one after the other. */
    public static final int THREADS = 16;

    @Param({"postgres", "mariadb"})
    String database;

    @Param({"1", "10", "100", "1000"})
    int tenants;

    @Param({"PER_TENANT", "SHARED"})
    Counter counter;

    @Param({"HIBERNATE"})
    Api api;

    @Param({"2"})
    long latencyMillis;

    @Param({"true"})
    boolean poolAutoCommit;

    SeriesFixture fixture;

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
        setUp(params.getThreads());
    }

    void setUp(int threads) {
        fixture = new SeriesFixture(BulkDatabase.fromOption(database), counter, api, tenants, threads,
                TimeUnit.MILLISECONDS.toNanos(latencyMillis), poolAutoCommit);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            System.out.println();
            System.out.println(database + " " + fixture.checkGapless());
        } finally {
            fixture.close();
        }
    }

    /**
     * One transaction of a tenant drawn uniformly at random: one invoice, its gapless number, the commit.
     *
     * @return the number
     */
    @Benchmark
    public long invoice() {
        return fixture.randomTenantInvoice();
    }
}
