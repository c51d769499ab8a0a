package dev.seqgen.spanner.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.Servers;
import dev.seqgen.testing.SpannerEmulatorHost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * seqgen's JDBC store on Cloud Spanner through the Spanner JDBC driver, as a JPA application on Spanner uses it,
 * on the emulator, for both SQL dialects (GoogleSQL and PostgreSQL, the latter with the driver's
 * {@code auto_batch_dml} on): ASYNC, BATCH and ASYNC_BATCH values unique
 * across threads and two registries; SYNC inside the caller's own read-write transaction, gapless with a third of
 * the transactions rolled back. The emulator runs one read-write transaction at a time and aborts the others; the
 * driver retries an aborted transaction itself and, when a retried SYNC increment returns another value than the
 * first attempt, throws {@code AbortedDueToConcurrentModificationException}: the application retries the whole
 * transaction, as here, and no number is duplicated or silently skipped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JdbcStoreOnSpannerEmulatorTest {

    enum SpannerDialect { GOOGLE_STANDARD_SQL, POSTGRESQL }

    private final Map<SpannerDialect, HikariDataSource> pools = new EnumMap<>(SpannerDialect.class);

    @BeforeAll
    void connect() {
        String host = SpannerEmulatorHost.host();
        if (host == null) {
            return;
        }
        for (SpannerDialect dialect : SpannerDialect.values()) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl("jdbc:cloudspanner://" + host + "/projects/seqgen-test/instances/seqgen-test/databases/"
                    + "jdbc-" + dialect.name().toLowerCase().replace('_', '-').substring(0, 6) + "-"
                    + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36).substring(0, 8)
                    + "?autoConfigEmulator=true;dialect=" + dialect.name()
                    // The PostgreSQL-dialect pool batches DML as Google's samples do: the store turns that off on
                    // its own connections (an existing row's INSERT ... ON CONFLICT DO NOTHING changes 0 rows, not
                    // the 1 the driver assumes).
                    + (dialect == SpannerDialect.POSTGRESQL ? ";auto_batch_dml=true" : ""));
            config.setMaximumPoolSize(8);
            config.setPoolName("spanner-jdbc-" + dialect);
            pools.put(dialect, new HikariDataSource(config));
        }
    }

    @AfterAll
    void close() {
        pools.values().forEach(HikariDataSource::close);
        SpannerJdbcClients.close();
    }

    static Stream<Arguments> dialectsAndStrategies() {
        return Stream.of(SpannerDialect.values()).flatMap(d -> Stream.of(Strategy.ASYNC, Strategy.BATCH,
                Strategy.ASYNC_BATCH).map(s -> Arguments.of(d, s)));
    }

    @ParameterizedTest(name = "spanner-emulator {0} JDBC {1}")
    @MethodSource("dialectsAndStrategies")
    void valuesAreUniqueAcrossThreadsAndTwoRegistries(SpannerDialect dialect, Strategy strategy) throws Exception {
        JdbcSequenceStore store = store(dialect);
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(20).lowWatermark(5)
                .acquireTimeout(Duration.ofSeconds(60)).build();
        try (SequenceRegistry a = SequenceRegistry.builder(store).defaults(settings).build();
                SequenceRegistry b = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence[] generators = {a.sequence("orders"), b.sequence("orders")};
            long[] values = Concurrently.run(4, thread -> {
                long[] mine = new long[40];
                for (int i = 0; i < mine.length; i++) {
                    mine[i] = generators[thread % 2].next();
                }
                return mine;
            });
            assertThat(Concurrently.assertUnique(values)).hasSize(160);
        }
    }

    @ParameterizedTest(name = "spanner-emulator {0} JDBC SYNC")
    @MethodSource("dialects")
    void syncNumbersAreGaplessInTheCallersTransactionWithAThirdRolledBack(SpannerDialect dialect) throws Exception {
        JdbcSequenceStore store = store(dialect);
        SequenceSettings sync = SequenceSettings.builder().strategy(Strategy.SYNC).build();
        List<Long> committed = Collections.synchronizedList(new ArrayList<>());
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(sync).build()) {
            Sequence invoices = registry.sequence("invoices");
            Concurrently.run(2, thread -> {
                for (int i = 0; i < 15; i++) {
                    boolean rollBack = i % 3 == 2;
                    for (int attempt = 1; ; attempt++) {
                        try (Connection connection = pools.get(dialect).getConnection()) {
                            connection.setAutoCommit(false);
                            try {
                                long[] numbers = invoices.nextValuesInTransaction(connection, 2);
                                assertThat(numbers[1]).as("consecutive in one transaction").isEqualTo(numbers[0] + 1);
                                if (rollBack) {
                                    connection.rollback();
                                } else {
                                    connection.commit();
                                    committed.add(numbers[0]);
                                    committed.add(numbers[1]);
                                }
                                break;
                            } catch (RuntimeException | SQLException e) {
                                connection.rollback();
                                if (!aborted(e) || attempt == 50) {
                                    throw e;
                                }
                            }
                        }
                    }
                }
                return new long[0];
            });
        }
        long[] sorted = Concurrently.assertUnique(committed.stream().mapToLong(Long::longValue).toArray());
        Concurrently.assertContiguousFrom(1, sorted);
        assertThat(sorted).hasSize(2 * 2 * 10);
    }

    /**
     * The table of kept ranges, created beside the sequence table by the store through the driver (Spanner's DDL in
     * each dialect): a range kept twice (a retry after an unknown outcome) is one row, and it is taken once.
     */
    @ParameterizedTest(name = "spanner-emulator {0} JDBC kept ranges")
    @MethodSource("dialects")
    void aRangeKeptForTheFleetIsTakenOnce(SpannerDialect dialect) {
        JdbcSequenceStore store = store(dialect);
        store.createSequence("orders", 1);
        store.reserve("orders", 100, Long.MAX_VALUE - 1);
        assertThat(store.keep("orders", 51, 101)).isTrue();
        assertThat(store.keep("orders", 51, 101)).as("again, as a retry after an unknown outcome").isTrue();
        assertThat(store.keptRanges("orders")).containsExactly(new ReservedRange(51, 101));
        assertThat(store.takeKept("orders", Long.MAX_VALUE - 1)).hasValue(new ReservedRange(51, 101));
        assertThat(store.takeKept("orders", Long.MAX_VALUE - 1)).isEmpty();
    }

    static Stream<SpannerDialect> dialects() {
        return Stream.of(SpannerDialect.values());
    }

    private JdbcSequenceStore store(SpannerDialect dialect) {
        if (pools.isEmpty()) {
            Servers.missing(SpannerEmulatorHost.NO_EMULATOR);
        }
        String table = "seqgen_t" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
        JdbcSequenceStore store = JdbcSequenceStore.builder(pools.get(dialect)).table(table).build();
        assertThat(store.name()).isEqualTo("spanner");
        assertThat(store.toString()).as("the JDBC dialect seqgen chose")
                .startsWith(dialect == SpannerDialect.POSTGRESQL ? "JdbcSequenceStore[spanner_postgresql,"
                        : "JdbcSequenceStore[spanner,");
        return store;
    }

    /** An abort the application is to answer by retrying its transaction. */
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
}
