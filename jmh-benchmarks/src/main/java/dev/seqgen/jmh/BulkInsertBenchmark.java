package dev.seqgen.jmh;

import dev.seqgen.jmh.bulk.BulkDatabase;
import dev.seqgen.jmh.bulk.Fixture;
import dev.seqgen.jmh.bulk.IdKind;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JPA bulk insert: entities per second that plain Hibernate (no Spring) inserts with JDBC batching, for each
 * id kind a user can pick, on a real database.
 *
 * <p>Workload: one operation is one transaction that persists {@value #ENTITIES_PER_TRANSACTION} new entities
 * (four payload columns: a string, a long, a short string, a timestamp), flushing and clearing the session
 * every 50, and commits; an iteration runs as many such transactions as fit in it, and the table is emptied
 * between iterations. Hibernate runs with {@code hibernate.jdbc.batch_size=50} and
 * {@code hibernate.order_inserts=true} over a HikariCP pool; every id kind ({@link IdKind}) is an entity class
 * of its own with the same columns:
 * <ul>
 * <li>{@code SEQGEN_ASYNC_BATCH}: {@code @SeqgenGenerator(strategy = ASYNC_BATCH)} with blocks of 1000 configured
 *     for the sequence, the registry given in {@code seqgen.hibernate.registry} over a {@code JdbcSequenceStore} with a dedicated
 *     connection, in the same database;</li>
 * <li>{@code IDENTITY}: {@code GenerationType.IDENTITY};</li>
 * <li>{@code SEQUENCE_POOLED}: {@code GenerationType.SEQUENCE}, allocation size 50 (Hibernate's pooled
 *     optimizer);</li>
 * <li>{@code UUID}: {@code GenerationType.UUID}, random UUIDs.</li>
 * </ul>
 * Each trial creates its tables afresh (hbm2ddl {@code create-drop}, names ending in a random suffix, so that
 * runs sharing a database do not collide) and logs how many statements Hibernate prepared per 1000 entities:
 * about 20 when inserts batch in 50s, 1000 when they do not. The score is entities per second
 * ({@code @OperationsPerInvocation}).
 *
 * <p>Databases ({@code database}): {@code h2} in memory; {@code postgres}, {@code mariadb} at
 * {@code SEQGENTEST_POSTGRES_URL}/{@code _USER}/{@code _PASSWORD} (likewise {@code SEQGENTEST_MARIADB_*}),
 * by default {@code jdbc:postgresql://localhost:5432/seqgen_test} and
 * {@code jdbc:mariadb://127.0.0.1:3306/seqgen_test}, user and password {@code seqgen}.
 *
 * <p>Targets (issue 6): SEQGEN_ASYNC_BATCH at least 3x IDENTITY, at least 1.0x SEQUENCE_POOLED and UUID.
 *
 * <pre>{@code
 * ./mvnw -B -pl jmh-benchmarks -am package -DskipTests
 * java -jar jmh-benchmarks/target/benchmarks.jar BulkInsertBenchmark -f 1 -wi 2 -i 3 -w 2s -r 2s
 * java -jar jmh-benchmarks/target/benchmarks.jar BulkInsertBenchmark -p database=mariadb
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class BulkInsertBenchmark {

    /** Entities persisted per transaction, which is one benchmark operation. */
    public static final int ENTITIES_PER_TRANSACTION = 1000;

    @Param({"h2", "postgres"})
    String database;

    @Param({"SEQGEN_ASYNC_BATCH", "IDENTITY", "SEQUENCE_POOLED", "UUID"})
    IdKind idKind;

    Fixture fixture;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new Fixture(BulkDatabase.fromOption(database), idKind);
        // One transaction before the clock starts: the first block, the first sequence call, class loading.
        fixture.insert(ENTITIES_PER_TRANSACTION);
    }

    @Setup(Level.Iteration)
    public void emptyTable() {
        fixture.truncate();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            System.out.println();
            System.out.println(database + " " + fixture.activity());
        } finally {
            fixture.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(ENTITIES_PER_TRANSACTION)
    public Object insert() {
        return fixture.insert(ENTITIES_PER_TRANSACTION);
    }
}
