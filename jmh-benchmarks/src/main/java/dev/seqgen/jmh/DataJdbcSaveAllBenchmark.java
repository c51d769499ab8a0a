package dev.seqgen.jmh;

import dev.seqgen.jmh.bulk.BulkDatabase;
import dev.seqgen.jmh.datajdbc.SaveAllFixture;
import dev.seqgen.jmh.datajdbc.SaveAllFixture.IdSource;
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
 * Spring Data JDBC {@code saveAll}: new aggregates per second whose ids come from seqgen ({@code @Id @SeqgenValue},
 * the default strategy, async-batch) or from Spring Data's own {@code @Id @Sequence}, with every sequence round trip
 * made {@code storeLatencyMillis} slower: a sequence store far away.
 *
 * <p>Workload: one operation is one transaction that saves {@value #AGGREGATES_PER_CALL} new aggregates (an id and
 * two payload columns) with one {@code JdbcAggregateTemplate.saveAll}, which Spring Data JDBC sends as one JDBC batch
 * of inserts with the ids provided; the table is emptied between iterations. The application is a Spring context
 * with Spring Data JDBC's configuration and seqgen's {@code SeqgenDataJdbcAutoConfiguration} (its
 * {@code BeforeConvertCallback}); Spring Data's {@code IdGeneratingEntityCallback} serves {@code @Sequence}. A data
 * source wrapper adds the latency to each statement sent to a sequence (seqgen's table, {@code nextval},
 * {@code NEXT VALUE FOR}), not to the inserts, and counts them: at the end of each iteration the benchmark prints the
 * sequence round trips per 1,000 aggregates, and fails if two rows share an id. The score is aggregates per second
 * ({@code @OperationsPerInvocation}).
 *
 * <p>Target (issue 42): seqgen at least 5x {@code @Sequence} on PostgreSQL with 2 ms latency, ids unique.
 *
 * <pre>{@code
 * ./mvnw -B -pl jmh-benchmarks -am package -DskipTests
 * java -jar jmh-benchmarks/target/benchmarks.jar DataJdbcSaveAllBenchmark -p database=postgres -f 1 -wi 2 -i 3 -w 5s -r 5s
 * }</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DataJdbcSaveAllBenchmark {

    /** New aggregates per {@code saveAll}, which is one benchmark operation. */
    public static final int AGGREGATES_PER_CALL = 1000;

    @Param({"h2"})
    String database;

    @Param({"SEQGEN", "SPRING_DATA_SEQUENCE"})
    IdSource idSource;

    @Param({"2"})
    long storeLatencyMillis;

    SaveAllFixture fixture;

    private long roundTripsAtStart;
    private long calls;

    @Setup(Level.Trial)
    public void setUp() {
        fixture = new SaveAllFixture(BulkDatabase.fromOption(database), idSource,
                TimeUnit.MILLISECONDS.toNanos(storeLatencyMillis));
        // One call before the clock starts: the first block, class loading, Spring Data's statements.
        fixture.saveAll(AGGREGATES_PER_CALL);
    }

    @Setup(Level.Iteration)
    public void startCounting() {
        fixture.emptyTable();
        roundTripsAtStart = fixture.roundTrips();
        calls = 0;
    }

    @Benchmark
    @OperationsPerInvocation(AGGREGATES_PER_CALL)
    public long saveAll() {
        calls++;
        return fixture.saveAll(AGGREGATES_PER_CALL);
    }

    @TearDown(Level.Iteration)
    public void report() {
        long[] rows = fixture.rowsAndDistinctIds();
        if (rows[0] != rows[1]) {
            throw new IllegalStateException(idSource + ": " + rows[0] + " rows hold only " + rows[1] + " distinct ids");
        }
        long roundTrips = fixture.roundTrips() - roundTripsAtStart;
        System.out.printf("%n%s: %d aggregates saved, ids unique; %d sequence round trips, %.1f per 1,000 aggregates%n",
                idSource, rows[0], roundTrips, calls == 0 ? 0.0 : roundTrips * 1000.0 / (calls * AGGREGATES_PER_CALL));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        fixture.close();
    }
}
