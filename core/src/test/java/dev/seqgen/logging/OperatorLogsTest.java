package dev.seqgen.logging;

import dev.seqgen.KeyRange;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.ForwardingSequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;
import dev.seqgen.testing.LogRecords;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * What an operator reads in the logs. seqgen logs through {@link System.Logger}, which without a bridge goes to
 * {@code java.util.logging}; this test listens there: the start-up summary, one warning per background refill
 * outage (not per attempt) and a note when refills work again, a DEBUG line per retry, a warning for a row moved
 * back, and per sequence at close what was given back, kept for the fleet and lost.
 */
class OperatorLogsTest {

    @RegisterExtension
    final LogRecords logs = new LogRecords();

    @Test
    void startUpSummaryNamesTheStoreAndTheSettings() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .sequence("invoices", SequenceSettings.builder().strategy(Strategy.SYNC).build()).build()) {
            assertThat(messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("seqgen registry on the "
                    + store.name() + " store").contains("invoices").contains("SYNC"));
        }
    }

    /**
     * The summary of a registry built by hand: per sequence, the values that differ from the defaults, said so (the
     * builder is not told which values were set); a default skip range beside sequential keys says whom it is for.
     */
    @Test
    void startUpSummaryShowsASequencesOwnValuesAndASkipRangeOnlyWhereItApplies() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().skipRange(KeyRange.of(1, 1000)).build())
                .sequence("orders", SequenceSettings.builder().skipRange(KeyRange.of(1, 1000)).blockSize(40).build())
                .build()) {
            assertThat(messages(Level.INFO)).filteredOn(m -> m.startsWith("seqgen registry on")).singleElement()
                    .satisfies(m -> assertThat(m).contains(", skip-range=1..1000 (bit-reversed sequences only)")
                            .endsWith("; per sequence: orders (block-size=40, where its settings differ from the"
                                    + " defaults)"));
        }
    }

    @Test
    void aBackgroundRefillOutageIsWarnedOnceAndItsEndIsNoted() throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(10)
                .lowWatermark(5).acquireTimeout(Duration.ofSeconds(2)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence ids = registry.sequence("ids");
            await().atMost(Duration.ofMinutes(1)).until(() -> ids.stats().remaining() == 10);
            ids.next();
            store.down(true);
            // The values in hand, then failures: every background refill of the outage fails.
            for (int i = 0; i < 12; i++) {
                catchThrowable(ids::next);
            }
            assertThat(messages(Level.WARNING)).filteredOn(m -> m.contains("a background refill failed"))
                    .hasSize(1);
            store.down(false);
            await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> ids.next() > 0);
            assertThat(messages(Level.INFO)).anySatisfy(m -> assertThat(m).contains("background refills work again"));

            // A retry, forced: the next reservation fails once, transiently.
            store.failNextTransiently(1);
            for (int i = 0; i < 30; i++) {
                catchThrowable(ids::next);
            }
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(messages(Level.FINE))
                    .anySatisfy(m -> assertThat(m).contains("retrying a reservation")));
        }
    }

    @Test
    void aRowMovedBackIsWarned() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence ids = registry.sequence("ids");
            for (int i = 0; i < 10; i++) {
                ids.next();
            }
            store.giveBack("ids", 11, 1); // the row moved back by hand
            catchThrowable(ids::next);
            assertThat(messages(Level.WARNING)).anySatisfy(m -> assertThat(m).contains("the row was moved back"));
        }
    }

    @Test
    void aCloseSaysPerSequenceWhatItGaveBackKeptAndLost() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build();
        SequenceRegistry first = SequenceRegistry.builder(store).defaults(settings).build();
        first.sequence("ids").next(); // [1, 11)
        first.sequence("numbers").next(); // [1, 11)
        try (SequenceRegistry second = SequenceRegistry.builder(store).defaults(settings).build()) {
            second.sequence("ids").next(); // [11, 21): after the first
            first.close();
        }
        assertThat(messages(Level.INFO))
                .contains("sequence 'ids' (batch) closed after issuing 1 value: kept [2, 11) for the fleet (the row has"
                        + " moved past it); lost nothing")
                .contains("sequence 'numbers' (batch) closed after issuing 1 value: gave back [2, 11) to the row;"
                        + " lost nothing");
    }

    @Test
    void eachBlockSequenceSaysOnceAtItsFirstBlockWhatItHoldsWhereItCameFromAndWhyThatSize() {
        AtomicLong now = new AtomicLong();
        InMemorySequenceStore rows = new InMemorySequenceStore();
        // A row whose reservations take 12 ms on the test's clock.
        SequenceStore store = new ForwardingSequenceStore(rows) {
            @Override
            public ReservedRange reserve(String sequence, long count, long maxValue) {
                now.addAndGet(TimeUnit.MILLISECONDS.toNanos(12));
                return delegate.reserve(sequence, count, maxValue);
            }
        };
        rows.createSequence("invoices", 1);
        rows.reserve("invoices", 5000, Long.MAX_VALUE);
        rows.keep("invoices", 1, 5001);
        try (SequenceRegistry registry = SequenceRegistry.builder(store).ticker(now::get).executor(Runnable::run)
                .sequence("invoices", SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(100).build())
                .sequence("tickets", SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).adaptive(true)
                        .build())
                .build()) {
            registry.warmUp(List.of("orders", "invoices", "tickets"), Duration.ofSeconds(5));
            for (int i = 0; i < 3000; i++) {
                registry.sequence("orders").next();
            }
            assertThat(messages(Level.INFO).stream().filter(m -> m.contains("first block")).toList()).containsExactly(
                    "sequence 'orders' (async-batch) first block: [1, 1001), 1000 values, from the row in 12 ms; size:"
                            + " block-size 1000, as nothing is measured before the first block; later blocks follow the"
                            + " rate and the row's queue, up to adaptive.max-block-size 100000",
                    "sequence 'invoices' (batch) first block: [1, 101), 100 values, from the lowest range kept for the"
                            + " fleet by an instance that stopped (a larger one is split; its rest stays kept) in 0 ms;"
                            + " size: block-size 100 (adaptive sizing is off)",
                    "sequence 'tickets' (batch) first block: [1, 11), 10 values, from the row in 12 ms; size:"
                            + " block-size 10, as nothing is measured before the first block; later blocks follow the"
                            + " rate and the row's queue, up to adaptive.max-block-size 100000");
            assertThat(rows.keptRanges("invoices")).containsExactly(new ReservedRange(101, 5001));
        }
    }

    private List<String> messages(Level level) {
        return logs.messages(level);
    }
}
