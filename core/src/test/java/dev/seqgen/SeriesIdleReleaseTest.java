package dev.seqgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.ForwardingSequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The release of idle series ({@link SequenceRegistry#releaseIdleSeries()}): a series unused for the idle timeout is
 * closed (its unused values back to the row) and forgotten, its next use opens it again, and neither a call during
 * the release nor another registry on the same row ever gets a value twice. Time is the test's {@link Ticker}; every
 * event the assertions need (a call inside the series, a give-back under way) is held with a latch.
 */
class SeriesIdleReleaseTest {

    private static final Duration IDLE = Duration.ofMinutes(10);

    private final AtomicLong now = new AtomicLong();
    private final Ticker ticker = now::get;
    private final InMemorySequenceStore store = new InMemorySequenceStore();
    private final SequenceSettings batch = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10).build();
    private final Executor threads = Concurrently.OWN_THREAD;

    private SequenceRegistry registry(dev.seqgen.spi.SequenceStore over) {
        return SequenceRegistry.builder(over).sequence("invoices", batch).ticker(ticker).seriesIdleTimeout(IDLE)
                .build();
    }

    private void pass(Duration time) {
        now.addAndGet(time.toNanos());
    }

    @Test
    void anIdleSeriesGivesItsValuesBackAndOpensAgainOnItsNextUse() {
        try (SequenceRegistry registry = registry(store)) {
            Sequence acme = registry.series("invoices", "acme");
            assertThat(acme.nextValues(3)).containsExactly(1, 2, 3);
            Sequence globex = registry.series("invoices", "globex");
            globex.next();

            assertThat(registry.releaseIdleSeries()).as("used since the last look: idle from now on").isZero();
            pass(IDLE.minusSeconds(1));
            globex.next();
            assertThat(registry.releaseIdleSeries()).as("not idle for the whole timeout yet").isZero();
            pass(Duration.ofSeconds(1));
            assertThat(registry.releaseIdleSeries()).as("acme idle for the timeout, globex used meanwhile")
                    .isEqualTo(1);

            assertThat(registry.openSeries("invoices")).containsOnlyKeys("globex");
            assertThat(store.nextValue("invoices#acme")).as("the unused block went back to the row").hasValue(4);
            assertThat(acme.stats().remaining()).as("nothing in hand").isZero();
            assertThat(registry.openSeries("invoices")).as("reading the statistics opens nothing")
                    .containsOnlyKeys("globex");
            assertThat(registry.series("invoices", "acme").next()).as("opened again, from the row").isEqualTo(4);
            assertThat(acme.next()).as("the handle kept by a caller forwards to the series opened again")
                    .isEqualTo(5);
            assertThat(registry.openSeries("invoices")).containsOnlyKeys("acme", "globex");
        }
    }

    /** The registry looks for idle series itself, on a thread of its own, once a series is open. */
    @Test
    void theRegistryReleasesIdleSeriesOnItsOwn() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).sequence("invoices", batch)
                .seriesIdleTimeout(Duration.ofMillis(20)).build()) {
            registry.series("invoices", "acme").nextValues(2);
            await().atMost(Duration.ofMinutes(1)).until(() -> registry.openSeries("invoices").isEmpty());
            assertThat(store.nextValue("invoices#acme")).as("its block given back").hasValue(3);
        }
    }

    /** A registry per tenant (as seqgen's Hibernate support makes for tenants' own tables) adds no thread each. */
    @Test
    void theRegistriesOfAJvmShareOneThreadForTheirIdleSeries() {
        List<SequenceRegistry> registries = new ArrayList<>();
        try {
            for (int tenant = 0; tenant < 20; tenant++) {
                SequenceRegistry registry = SequenceRegistry.builder(store.sameRows()).sequence("invoices", batch)
                        .build();
                registries.add(registry);
                registry.series("invoices", "tenant-" + tenant).next();
            }
            assertThat(Thread.getAllStackTraces().keySet()).filteredOn(thread -> thread.getName()
                    .equals("seqgen-series-idle")).hasSize(1);
        } finally {
            registries.forEach(SequenceRegistry::close);
        }
    }

    @Test
    void zeroKeepsEverySeriesOpenAndANegativeTimeoutIsRefused() {
        try (SequenceRegistry registry = SequenceRegistry.builder(store).ticker(ticker)
                .seriesIdleTimeout(Duration.ZERO).build()) {
            registry.series("invoices", "acme").next();
            pass(Duration.ofDays(365));
            assertThat(registry.releaseIdleSeries()).isZero();
            assertThat(registry.openSeries("invoices")).containsOnlyKeys("acme");
        }
        assertThatThrownBy(() -> SequenceRegistry.builder(store).seriesIdleTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("series.idle-timeout");
        assertThat(SequenceRegistry.builder(store).build().seriesIdleTimeout())
                .isEqualTo(SequenceRegistry.DEFAULT_SERIES_IDLE_TIMEOUT).isEqualTo(Duration.ofMinutes(10));
    }

    /**
     * A call inside the series (a SYNC increment waiting for the row, its transaction's clock not the registry's)
     * when the release comes: the series stays open however long the call takes.
     */
    @Test
    void aSeriesWithACallUnderWayIsNotReleased() throws Exception {
        HeldStore held = new HeldStore(store);
        SequenceSettings sync = SequenceSettings.builder().strategy(Strategy.SYNC).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(held).sequence("receipts", sync).ticker(ticker)
                .seriesIdleTimeout(IDLE).build()) {
            Sequence acme = registry.series("receipts", "acme");
            held.holdReservations();
            CompletableFuture<Long> inside = CompletableFuture.supplyAsync(() -> {
                InMemorySequenceStore.Transaction transaction = store.begin();
                long value = acme.nextInTransaction(transaction);
                transaction.commit();
                return value;
            }, threads);
            held.awaitHeld();

            assertThat(registry.releaseIdleSeries()).as("a call is inside").isZero();
            pass(IDLE.multipliedBy(2));
            assertThat(registry.releaseIdleSeries()).as("still inside, for twice the idle timeout").isZero();

            held.letGo();
            assertThat(inside.get(1, TimeUnit.MINUTES)).isEqualTo(1);
            assertThat(registry.openSeries("receipts")).containsOnlyKeys("acme");
            pass(IDLE);
            assertThat(registry.releaseIdleSeries()).as("seen used since the call").isZero();
            pass(IDLE);
            assertThat(registry.releaseIdleSeries()).as("idle for a whole timeout after the call left").isEqualTo(1);
            assertThat(registry.openSeries("receipts")).isEmpty();
            InMemorySequenceStore.Transaction next = store.begin();
            assertThat(acme.nextInTransaction(next)).as("opened again").isEqualTo(2);
            next.commit();
        }
    }

    /**
     * A call that comes while the release gives the block back: it waits for the give-back, then takes its value from
     * the series opened again, above what was given back, and never from the released sequence.
     */
    @Test
    void aCallDuringTheReleaseWaitsForTheGiveBackAndIsServedByTheSeriesOpenedAgain() throws Exception {
        HeldStore held = new HeldStore(store);
        try (SequenceRegistry registry = registry(held)) {
            Sequence acme = registry.series("invoices", "acme");
            assertThat(acme.nextValues(2)).containsExactly(1, 2);
            registry.releaseIdleSeries();
            pass(IDLE);
            held.holdGiveBacks();
            CompletableFuture<Integer> release = CompletableFuture.supplyAsync(registry::releaseIdleSeries, threads);
            held.awaitHeld();

            CompletableFuture<Long> byTheKeptHandle = CompletableFuture.supplyAsync(acme::next, threads);
            CompletableFuture<Long> byTheRegistry = CompletableFuture.supplyAsync(
                    () -> registry.series("invoices", "acme").next(), threads);
            assertThat(byTheKeptHandle).as("waits for the release").isNotDone();
            assertThat(byTheRegistry).as("waits for the release").isNotDone();
            assertThat(store.reservations()).as("nothing reserved while the give-back is under way").isEqualTo(1);

            held.letGo();
            assertThat(release.get(1, TimeUnit.MINUTES)).isEqualTo(1);
            Set<Long> values = Set.of(byTheKeptHandle.get(1, TimeUnit.MINUTES), byTheRegistry.get(1, TimeUnit.MINUTES));
            assertThat(values).as("from the row the release gave [3, 11) back to").containsExactlyInAnyOrder(3L, 4L);
            assertThat(registry.openSeries("invoices")).containsOnlyKeys("acme");
        }
    }

    /**
     * Two registries on one row, as two JVMs: the one that releases cannot give its block back (the other reserved
     * after it), so the block is kept for the fleet and handed out once, as the first block of the series opened
     * again. Nothing twice, nothing lost.
     */
    @Test
    void aReleaseBesideAnotherRegistryKeepsItsBlockForTheFleet() {
        try (SequenceRegistry first = registry(store); SequenceRegistry second = registry(store.sameRows())) {
            assertThat(first.series("invoices", "acme").next()).isEqualTo(1);
            assertThat(second.series("invoices", "acme").next()).isEqualTo(11);
            first.releaseIdleSeries();
            pass(IDLE);
            second.series("invoices", "acme").next();
            assertThat(first.releaseIdleSeries()).isEqualTo(1);
            assertThat(store.keptRanges("invoices#acme")).containsExactly(new ReservedRange(2, 11));

            assertThat(first.series("invoices", "acme").nextValues(9)).as("the kept range, once")
                    .containsExactly(2, 3, 4, 5, 6, 7, 8, 9, 10);
            assertThat(store.keptRanges("invoices#acme")).isEmpty();
            assertThat(first.series("invoices", "acme").next()).as("then from the row").isEqualTo(21);
        }
    }

    /**
     * Callers of several series on two registries over one row set, while a thread releases every series it can as
     * fast as it can (the clock always past the timeout): every value of a series is handed out once, whatever the
     * interleaving, and each series' values, given back or kept, are handed out again rather than lost.
     */
    @Test
    void releasesAmidCallsOnTwoRegistriesNeverHandAValueOutTwice() throws Exception {
        // The real clock, and an idle timeout of a nanosecond: every series not in a call is released at each look.
        try (SequenceRegistry first = SequenceRegistry.builder(store).sequence("invoices", batch)
                .seriesIdleTimeout(Duration.ofNanos(1)).build();
                SequenceRegistry second = SequenceRegistry.builder(store.sameRows()).sequence("invoices", batch)
                        .seriesIdleTimeout(Duration.ofNanos(1)).build()) {
            List<SequenceRegistry> registries = List.of(first, second);
            AtomicBoolean calling = new AtomicBoolean(true);
            // Halfway, every caller waits for a release: one happens amid the calls in every interleaving.
            CountDownLatch releasedOnce = new CountDownLatch(1);
            CompletableFuture<Integer> releasing = CompletableFuture.supplyAsync(() -> {
                int released = 0;
                while (calling.get()) {
                    released += first.releaseIdleSeries() + second.releaseIdleSeries();
                    if (released > 0) {
                        releasedOnce.countDown();
                    }
                }
                return released;
            }, threads);
            String[] keys = {"acme", "globex", "initech"};
            ConcurrentHashMap<String, Set<Long>> taken = new ConcurrentHashMap<>();
            List<Long> twice = new ArrayList<>();
            int perThread = 300;
            try {
                Concurrently.run(8, thread -> {
                    long[] values = new long[perThread];
                    for (int i = 0; i < perThread; i++) {
                        if (i == perThread / 2) {
                            assertThat(releasedOnce.await(1, TimeUnit.MINUTES)).as("a release halfway").isTrue();
                        }
                        String key = keys[(thread + i) % keys.length];
                        values[i] = registries.get((thread + i) % 2).series("invoices", key).next();
                        if (!taken.computeIfAbsent(key, ignored -> ConcurrentHashMap.newKeySet()).add(values[i])) {
                            synchronized (twice) {
                                twice.add(values[i]);
                            }
                        }
                    }
                    return values;
                });
            } finally {
                calling.set(false);
            }
            assertThat(releasing.get(1, TimeUnit.MINUTES)).as("releases happened amid the calls").isPositive();
            assertThat(twice).as("values handed out twice").isEmpty();
            assertThat(taken.values().stream().mapToInt(Set::size).sum()).isEqualTo(8 * perThread);
            first.close();
            second.close();
            for (String key : keys) {
                // Nothing lost: below the row, every value was handed out or is kept for the fleet.
                Set<Long> accounted = new java.util.TreeSet<>(taken.get(key));
                store.keptRanges("invoices#" + key).forEach(range -> {
                    for (long value = range.first(); value < range.end(); value++) {
                        assertThat(accounted.add(value)).as("kept and handed out: %s", value).isTrue();
                    }
                });
                long next = store.nextValue("invoices#" + key).orElseThrow();
                assertThat(accounted).as("series %s", key).hasSize((int) (next - 1)).allMatch(v -> v >= 1 && v < next);
            }
        }
    }

    /** A warm-up of known series: each opened with its first block in hand before its first use. */
    @Test
    void aWarmUpOpensTheNamedSeriesWithTheirFirstBlocks() {
        try (SequenceRegistry registry = registry(store)) {
            registry.warmUpSeries("invoices", List.of("acme/2026", "globex/2026"), Duration.ofSeconds(30));

            assertThat(registry.openSeries("invoices")).containsOnlyKeys("acme/2026", "globex/2026");
            assertThat(registry.openSeries("invoices").values()).allSatisfy(series -> {
                assertThat(series.stats().remaining()).isEqualTo(10);
                assertThat(series.stats().reservations()).isEqualTo(1);
            });
            assertThat(registry.series("invoices", "acme/2026").next()).isEqualTo(1);
            assertThat(registry.series("invoices", "acme/2026").stats().waits()).isZero();
            assertThatThrownBy(() -> registry.warmUpSeries("invoices", List.of("acme//2026"), Duration.ofSeconds(1)))
                    .isInstanceOf(SequenceConfigurationException.class).hasMessageContaining("a part is empty");
        }
    }

    /**
     * A sequence a framework declared (its entities number it, and open a series where its counter is, after reading
     * the numbers their table holds): the warm-up leaves its series alone, no row made and no block taken.
     */
    @Test
    void aWarmUpLeavesTheSeriesOfASequenceThatEntitiesNumber() {
        try (SequenceRegistry registry = registry(store)) {
            registry.declare("invoices", batch);
            registry.warmUpSeries("invoices", List.of("acme/2026"), Duration.ofSeconds(30));

            assertThat(store.nextValue("invoices#acme/2026")).isEmpty();
            assertThat(store.reservations()).isZero();
            assertThat(registry.openSeries("invoices")).isEmpty();
        }
    }

    @Test
    void theCloseReportSumsASequencesSeriesInOneReport() {
        SequenceRegistry registry = registry(store);
        for (String key : List.of("acme", "globex", "initech")) {
            registry.series("invoices", key).next();
        }
        registry.sequence("orders").next();
        List<CloseReport> reports = registry.closeAndReport();

        assertThat(reports).extracting(CloseReport::sequence).containsExactlyInAnyOrder("orders", "invoices");
        CloseReport invoices = reports.stream().filter(report -> report.series() > 0).findFirst().orElseThrow();
        assertThat(invoices.series()).isEqualTo(3);
        assertThat(invoices.issued()).isEqualTo(3);
        assertThat(invoices.givenBack()).isEqualTo(27);
        assertThat(invoices.message()).isEqualTo("sequence 'invoices' (batch): 3 series closed after issuing 3"
                + " values: gave back 27 values to the rows of 3 series; lost nothing");
        assertThatThrownBy(() -> registry.series("invoices", "acme").next())
                .isInstanceOf(SequenceUnavailableException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> registry.series("invoices", "hooli")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theReportOfSeriesNamesTheFirstSeriesThatLostValuesAndCountsTheRest() {
        List<CloseReport> reports = new ArrayList<>();
        for (int i = 0; i < CloseReport.NAMED_SERIES + 2; i++) {
            reports.add(new CloseReport("invoices#t" + i, Strategy.BATCH, 1, 0, 0, 9,
                    List.of("lost [2, 11) (9 values): the store failed"), null));
        }
        reports.add(new CloseReport("invoices#fine", Strategy.BATCH, 1, 9, 0, 0, List.of("gave back"), null));
        CloseReport sum = CloseReport.ofSeries("invoices", reports);

        assertThat(sum.lost()).isEqualTo(9 * (CloseReport.NAMED_SERIES + 2));
        assertThat(sum.message()).contains("series 'invoices#t0' lost [2, 11) (9 values): the store failed")
                .contains("series 'invoices#t9' lost").doesNotContain("invoices#t10").doesNotContain("invoices#fine")
                .contains("and 2 more series lost values").contains("gave back 9 values to the rows of 1 series")
                .doesNotContain("lost nothing");
    }

    /** A store that holds the next own-transaction reservation or give-back until the test lets it go. */
    private static final class HeldStore extends ForwardingSequenceStore {

        private volatile boolean holdReservations;
        private volatile boolean holdGiveBacks;
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch letGo = new CountDownLatch(1);

        HeldStore(dev.seqgen.spi.SequenceStore delegate) {
            super(delegate);
        }

        void holdReservations() {
            holdReservations = true;
        }

        void holdGiveBacks() {
            holdGiveBacks = true;
        }

        void awaitHeld() throws InterruptedException {
            assertThat(held.await(1, TimeUnit.MINUTES)).as("a held call came").isTrue();
        }

        void letGo() {
            letGo.countDown();
        }

        private void hold() {
            held.countDown();
            try {
                assertThat(letGo.await(1, TimeUnit.MINUTES)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public ReservedRange reserve(String sequence, long count, long maxValue) {
            if (holdReservations) {
                hold();
            }
            return super.reserve(sequence, count, maxValue);
        }

        @Override
        public ReservedRange reserveInTransaction(Object transaction, String sequence, long count, long maxValue) {
            if (holdReservations) {
                hold();
            }
            return super.reserveInTransaction(transaction, sequence, count, maxValue);
        }

        @Override
        public boolean giveBack(String sequence, long expectedNextValue, long restoredNextValue) {
            if (holdGiveBacks) {
                hold();
            }
            return super.giveBack(sequence, expectedNextValue, restoredNextValue);
        }
    }
}
