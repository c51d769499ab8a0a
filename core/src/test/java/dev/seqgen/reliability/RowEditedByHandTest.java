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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What seqgen does when someone edits the counter row by hand (or restores it from a backup).
 *
 * <ul>
 *   <li>Moved forward: the values skipped are a gap, nothing else.
 *   <li>Moved back below values this generator reserved: the next reservation sees it (the store hands out a
 *       range that starts at or below this generator's highest reserved value, which no give-back can cause)
 *       and fails with a {@link SequenceUnavailableException} that says what happened and which value the
 *       row needs, instead of handing the values out again. The values already in hand are still served:
 *       this generator reserved them before the edit. Once the row is set right, values flow again.
 *   <li>Moved back below values only other generators took (other JVMs, or an earlier run of this one): no
 *       generator can see that from the row, which is the only shared truth, so those values are issued
 *       again. A primary key on the application's table turns that into an insert error instead of silent
 *       duplicates; this test pins the behaviour so that nobody mistakes the guard above for more than it is.
 * </ul>
 */
class RowEditedByHandTest {

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    static Stream<Arguments> databasesAndStrategies() {
        return TestDatabase.all().flatMap(db -> Stream.of(Strategy.ASYNC, Strategy.BATCH, Strategy.ASYNC_BATCH)
                .map(s -> Arguments.of(db, s)));
    }

    private JdbcSequenceStore store(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        cleanups.add(() -> database.dropTable(table));
        return JdbcSequenceStore.builder(database.dataSource()).table(table).build();
    }

    /** Fixed blocks of 10, so that the values in hand before the edit are known. */
    private static SequenceSettings settings(Strategy strategy) {
        return SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(5).adaptive(false)
                .acquireTimeout(Duration.ofSeconds(1)).build();
    }

    private static void setNextValue(TestDatabase database, JdbcSequenceStore store, long nextValue) {
        database.execute("UPDATE " + store.table() + " SET next_value = " + nextValue + " WHERE name = 'orders'");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("databasesAndStrategies")
    void aRowMovedBackBelowWhatThisGeneratorReservedIsRefusedNotReissued(TestDatabase database, Strategy strategy) {
        JdbcSequenceStore store = store(database);
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(strategy)).build()) {
            Sequence orders = registry.sequence("orders");
            LongList values = new LongList();
            for (int i = 0; i < 25; i++) {
                values.add(orders.next());
            }
            if (strategy == Strategy.ASYNC_BATCH) {
                awaitPrefetchedBlock(orders); // 25 passed the low watermark of the third block
            }
            long reserved = orders.stats().highestReserved();

            setNextValue(database, store, 5);

            SequenceUnavailableException refused = null;
            for (int i = 0; i < 100 && refused == null; i++) {
                try {
                    values.add(orders.next()); // what is in hand was reserved before the edit
                } catch (SequenceUnavailableException e) {
                    refused = e;
                }
            }
            assertThat(refused).as("a refusal once the values in hand ran out").isNotNull();
            assertThat(refused.getMessage()).contains("sequence 'orders'").contains("moved back")
                    .contains("set next_value to at least " + (reserved + 1));
            assertThat(orders.stats().discarded()).as("the refused range").isPositive();
            Concurrently.assertUnique(values.toArray());

            setNextValue(database, store, reserved + 1);
            assertThat(orders.next()).as("values flow again once the row is set right").isGreaterThan(reserved);
            values.add(orders.next());
            Concurrently.assertUnique(values.toArray());
        }
    }

    private static void awaitPrefetchedBlock(Sequence orders) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (orders.stats().remaining() < 15) {
            assertThat(System.nanoTime() - deadline).as("prefetch arrived in time").isNegative();
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("databasesAndStrategies")
    void aRowMovedForwardOnlyLeavesAGap(TestDatabase database, Strategy strategy) {
        JdbcSequenceStore store = store(database);
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings(strategy)).build()) {
            Sequence orders = registry.sequence("orders");
            orders.next();
            setNextValue(database, store, 1_000);
            long value = 0;
            for (int i = 0; i < 30 && value < 1_000; i++) {
                value = orders.next();
            }
            assertThat(value).isEqualTo(1_000);
            assertThat(orders.stats().discarded()).isZero();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("databasesAndStrategies")
    void aRowMovedBackBelowValuesOnlyOtherGeneratorsTookCannotBeDetected(TestDatabase database, Strategy strategy) {
        JdbcSequenceStore store = store(database);
        SequenceSettings settings = settings(strategy);
        try (SequenceRegistry earlier = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence orders = earlier.sequence("orders");
            for (int i = 0; i < 20; i++) {
                orders.next();
            }
        }
        setNextValue(database, store, 11); // restored from a backup taken when 10 values were out
        try (SequenceRegistry later = SequenceRegistry.builder(store).defaults(settings).build()) {
            assertThat(later.sequence("orders").next()).as("issued by the earlier generator too").isEqualTo(11);
        }
    }
}
