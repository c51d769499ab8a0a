package dev.seqgen.reliability;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceExhaustedException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The last thousand values below {@code Long.MAX_VALUE - 1} (the largest maximum) and below
 * {@code Integer.MAX_VALUE} (for {@code int} ids), raced for by eight threads on two generators with single and
 * bulk calls and blocks of 64, so that the last block is short and bulk calls straddle the end, on H2,
 * PostgreSQL and MariaDB. Every value up to the maximum is issued once or counted as discarded (a bulk call
 * that did not fit), none beyond it; every caller then gets {@link SequenceExhaustedException}, again and
 * again, never a wrapped or negative value, and the row stops at the maximum plus one.
 */
class OverflowTest {

    private static final int THREADS = 8;
    private static final long VALUES = 1_000;

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    static Stream<Arguments> databasesStrategiesAndLimits() {
        return TestDatabase.all().flatMap(db -> Stream.of(Strategy.values()).flatMap(s -> Stream.of(
                Arguments.of(db, s, "Long.MAX_VALUE - 1", SequenceSettings.LARGEST_MAX_VALUE),
                Arguments.of(db, s, "Integer.MAX_VALUE", SequenceSettings.INT_MAX_VALUE))));
    }

    @ParameterizedTest(name = "{0} {1} up to {2}")
    @MethodSource("databasesStrategiesAndLimits")
    void everyValueUpToTheMaximumIsIssuedOnceThenEveryCallerIsToldItIsExhausted(TestDatabase database,
            Strategy strategy, String limitName, long maxValue) throws Exception {
        String table = TestDatabase.uniqueTable();
        cleanups.add(() -> database.dropTable(table));
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        long initial = maxValue - VALUES + 1;
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(64).lowWatermark(16)
                .initialValue(initial).maxValue(maxValue).build();
        List<Sequence> generators = new ArrayList<>();
        for (int g = 0; g < 2; g++) {
            SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build();
            cleanups.add(0, registry::close);
            generators.add(registry.sequence("ids"));
        }
        Queue<String> exhaustedMessages = new ConcurrentLinkedQueue<>();

        long[] values = Concurrently.run(THREADS, thread -> {
            Sequence ids = generators.get(thread % 2);
            LongList mine = new LongList();
            ThreadLocalRandom random = ThreadLocalRandom.current();
            try {
                for (boolean bulk = true; ; ) {
                    int count = bulk && random.nextInt(3) == 0 ? 1 + random.nextInt(7) : 1;
                    try {
                        mine.addAll(take(ids, count, database));
                    } catch (SequenceExhaustedException e) {
                        if (count == 1) {
                            throw e;
                        }
                        bulk = false; // fewer left than asked for (SYNC rolled the partial increment back)
                    }
                }
            } catch (SequenceExhaustedException e) {
                exhaustedMessages.add(e.getMessage());
                assertThatThrownBy(() -> take(ids, 1, database)).as("and again").isInstanceOf(SequenceExhaustedException.class);
            }
            return mine.toArray();
        });

        long[] sorted = Concurrently.assertUnique(values);
        long discarded = generators.stream().mapToLong(s -> s.stats().discarded()).sum();
        assertThat(sorted[0]).isGreaterThanOrEqualTo(initial);
        assertThat(sorted[sorted.length - 1]).isLessThanOrEqualTo(maxValue);
        assertThat(sorted.length + discarded).as("issued + discarded").isEqualTo(VALUES);
        assertThat(store.nextValue("ids")).hasValue(maxValue + 1);
        assertThat(exhaustedMessages).hasSize(THREADS).allSatisfy(message -> assertThat(message)
                .contains("sequence 'ids'").contains(String.valueOf(maxValue)));
        if (strategy == Strategy.SYNC) {
            Concurrently.assertContiguousFrom(initial, sorted);
        }
        assertThat(generators.stream().mapToDouble(s -> s.stats().capacityUsed()).max().orElseThrow()).isEqualTo(1.0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aRowEditedToLongMaxValueIsExhaustedForEveryStrategyNeverWrapped(TestDatabase database) throws Exception {
        String table = TestDatabase.uniqueTable();
        cleanups.add(() -> database.dropTable(table));
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).build();
        store.createSequence("ids", 1);
        database.execute("UPDATE " + table + " SET next_value = " + Long.MAX_VALUE + " WHERE name = 'ids'");
        for (Strategy strategy : Strategy.values()) {
            for (long maxValue : new long[] {SequenceSettings.LARGEST_MAX_VALUE, SequenceSettings.INT_MAX_VALUE}) {
                SequenceSettings settings = SequenceSettings.builder().strategy(strategy).maxValue(maxValue).build();
                try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
                    Sequence ids = registry.sequence("ids");
                    assertThatThrownBy(() -> take(ids, 3, database)).as(strategy + " up to " + maxValue)
                            .isInstanceOf(SequenceExhaustedException.class);
                }
            }
        }
        assertThat(store.nextValue("ids")).hasValue(Long.MAX_VALUE);
    }

    @Test
    void aMaximumThatLeavesNoRoomForTheRowIsRejected() {
        assertThatThrownBy(() -> SequenceSettings.builder().maxValue(Long.MAX_VALUE))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'max-value'");
        assertThatThrownBy(() -> SequenceSettings.builder().initialValue(Long.MAX_VALUE).build())
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'initial-value'");
        assertThatThrownBy(() -> SequenceSettings.builder().maxValue(SequenceSettings.INT_MAX_VALUE)
                .initialValue(SequenceSettings.INT_MAX_VALUE + 1).build())
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("'initial-value'");
    }

    private static long[] take(Sequence ids, int count, TestDatabase database) throws Exception {
        if (ids.strategy() != Strategy.SYNC) {
            return count == 1 ? new long[] {ids.next()} : ids.nextValues(count);
        }
        try (Connection connection = database.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            try {
                long[] values = ids.nextValuesInTransaction(connection, count);
                connection.commit();
                return values;
            } catch (RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }
}
