package dev.seqgen.testing.conformance;

import dev.seqgen.CloseReport;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.ForwardingSequenceStore;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The contract of a store that takes an unused tail back ({@link SequenceStore#giveBack}, a compare-and-set on the
 * row) and keeps for the fleet what it cannot take back ({@link SequenceStore#keep}, {@link SequenceStore#takeKept}):
 * a generator closing gives back exactly its unused tail when nobody reserved after it, and keeps it otherwise,
 * never giving back what is not its own; a kept range is handed out once, as a later generator's first block or as
 * the refill of a running one whose values lie below it.
 */
public interface GiveBackContract extends StoreContract {

    /** Threads taking values while a registry is closed. */
    int CALLERS = 8;

    default SequenceSettings closingSettings(Strategy strategy) {
        return settings(strategy).blockSize(100).lowWatermark(50).build();
    }

    /** Two registries (as two JVMs) over one store's rows, on stores of their own, and their sequence "orders". */
    record TwoGenerators(SequenceStore store, SequenceRegistry first, SequenceRegistry second, Sequence a, Sequence b) {
    }

    default TwoGenerators twoGenerators(Strategy strategy) {
        SequenceStore store = subject().newStore();
        SequenceRegistry first = SequenceRegistry.builder(store).defaults(closingSettings(strategy)).build();
        SequenceRegistry second = SequenceRegistry.builder(subject().sameRows(store))
                .defaults(closingSettings(strategy)).build();
        return new TwoGenerators(store, first, second, first.sequence("orders"), second.sequence("orders"));
    }

    @Test
    default void giveBackIsACompareAndSetOnTheRow() {
        SequenceStore store = subject().newStore();
        create(store, "orders", 1, 100, MAX);
        assertThat(store.reserve("orders", 100, MAX).end()).isEqualTo(101);

        assertThat(store.giveBack("orders", 100, 50)).as("not the row's value").isFalse();
        assertThat(store.nextValue("orders")).hasValue(101);
        assertThat(store.giveBack("orders", 101, 50)).isTrue();
        assertThat(store.nextValue("orders")).hasValue(50);
        assertThat(store.reserve("orders", 100, MAX)).isEqualTo(new ReservedRange(50, 150));
        assertThat(store.giveBack("orders", 50, 1)).as("someone reserved after the caller").isFalse();
        assertThat(store.nextValue("orders")).hasValue(150);
    }

    @Test
    default void closingTheRegistryGivesBackTheUnusedTailOnTheRow() {
        SequenceStore store = subject().newStore();
        SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(settings(Strategy.ASYNC_BATCH).blockSize(100).build()).build();
        Sequence orders = registry.sequence("orders");
        for (int i = 0; i < 10; i++) {
            orders.next();
        }
        registry.close();
        assertThat(store.nextValue("orders")).hasValue(11);
    }

    @TestFactory
    default Stream<DynamicTest> theTailIsGivenBackByTheGeneratorThatReservedLastAndKeptForTheFleetByTheOthers() {
        return perStrategy(List.of(Strategy.BATCH, Strategy.ASYNC_BATCH), strategy -> {
            // The second generator is created only after the first holds its block: ASYNC_BATCH reserves its first
            // block in the background at creation, and two created together would reserve in either order.
            SequenceStore store = subject().newStore();
            SequenceRegistry first = SequenceRegistry.builder(store).defaults(closingSettings(strategy)).build();
            Sequence a = first.sequence("orders");
            assertThat(a.next()).isEqualTo(1); // reserves [1, 101)
            SequenceRegistry second = SequenceRegistry.builder(subject().sameRows(store))
                    .defaults(closingSettings(strategy)).build();
            Sequence b = second.sequence("orders");
            assertThat(b.next()).isEqualTo(101); // reserves [101, 201), after a

            List<CloseReport> reportsOfFirst = first.closeAndReport();
            assertThat(store.nextValue("orders")).as("row after the first closed: b reserved after it").hasValue(201);
            assertThat(a.stats().discarded()).as("a's tail, kept rather than lost").isZero();
            assertThat(store.keptRanges("orders")).containsExactly(new ReservedRange(2, 101));
            assertThat(reportsOfFirst).singleElement().satisfies(report -> {
                assertThat(report.kept()).isEqualTo(99);
                assertThat(report.lost()).isZero();
                assertThat(report.message()).contains("sequence 'orders'").contains("kept [2, 101) for the fleet");
            });

            second.close();
            assertThat(store.nextValue("orders")).as("row after the second closed: nobody reserved after it")
                    .hasValue(102);
            assertThat(b.stats().discarded()).isZero();

            try (SequenceRegistry third = SequenceRegistry.builder(store).defaults(closingSettings(strategy)).build()) {
                long[] values = take(third.sequence("orders"), 150);
                assertThat(values).as("the kept range first, then the given-back tail, in increasing order")
                        .containsExactly(LongStream.concat(LongStream.range(2, 101), LongStream.range(102, 153))
                                .toArray());
                assertThat(store.keptRanges("orders")).as("the kept range, taken once").isEmpty();
            }
        });
    }

    @Test
    default void aKeptRangeIsTakenOnceThenGone() {
        SequenceStore store = subject().newStore();
        create(store, "orders", 1, 100, MAX);
        store.reserve("orders", 300, MAX);
        assertThat(store.takeKept("orders", MAX)).as("nothing kept yet").isEmpty();
        assertThat(store.keep("orders", 201, 300)).isTrue();
        assertThat(store.keep("orders", 1, 100)).isTrue();
        assertThat(store.keep("orders", 1, 100)).as("again, as a retry after an unknown outcome: the same row").isTrue();
        assertThat(store.keptRanges("orders")).containsExactly(new ReservedRange(1, 100), new ReservedRange(201, 300));
        assertThat(store.keptRanges("invoices")).as("another sequence's").isEmpty();

        assertThat(store.takeKept("orders", MAX)).as("the lowest first").hasValue(new ReservedRange(1, 100));
        assertThat(subject().sameRows(store).takeKept("orders", 250)).as("cut at the maximum")
                .hasValue(new ReservedRange(201, 251));
        assertThat(store.takeKept("orders", MAX)).isEmpty();
        assertThat(store.keptRanges("orders")).isEmpty();
        assertThat(store.nextValue("orders")).as("the row, untouched").hasValue(301);
    }

    @Test
    default void aKeptRangeLargerThanWhatIsAskedIsSplitTheLowestFirstAndItsRestStaysKept() {
        SequenceStore store = subject().newStore();
        create(store, "orders", 1, 100, MAX);
        store.reserve("orders", 400, MAX);
        assertThat(store.keep("orders", 201, 300)).isTrue();
        assertThat(store.keep("orders", 1, 100)).isTrue();

        assertThat(store.takeKept("orders", 10, MAX)).as("the first 10 values of the lowest range")
                .hasValue(new ReservedRange(1, 11));
        assertThat(store.keptRanges("orders")).as("its rest stays kept, with the other range")
                .containsExactly(new ReservedRange(11, 100), new ReservedRange(201, 300));
        assertThat(subject().sameRows(store).takeKept("orders", 89, MAX)).as("exactly the rest: nothing left of it")
                .hasValue(new ReservedRange(11, 100));
        assertThat(store.takeKept("orders", 1000, MAX)).as("a range smaller than asked, whole")
                .hasValue(new ReservedRange(201, 300));
        assertThat(store.keptRanges("orders")).isEmpty();

        assertThat(store.keep("orders", 301, 401)).isTrue();
        assertThat(store.takeKept("orders", 50, 320)).as("cut at the maximum").hasValue(new ReservedRange(301, 321));
        assertThat(store.takeKept("orders", 50, MAX)).as("what lies above the maximum is not kept as a rest")
                .isEmpty();
        assertThat(store.nextValue("orders")).as("the row, untouched").hasValue(401);

        // A running instance takes only what starts at or above a value: the lowest of those, split.
        store.reserve("orders", 600, MAX);
        assertThat(store.keep("orders", 401, 501)).isTrue();
        assertThat(store.keep("orders", 601, 1001)).isTrue();
        assertThat(subject().sameRows(store).takeKept("orders", 501, 50, MAX))
                .as("the lowest range starting at or above 501, split").hasValue(new ReservedRange(601, 651));
        assertThat(store.keptRanges("orders")).as("the range below 501 and the rest, kept")
                .containsExactly(new ReservedRange(401, 501), new ReservedRange(651, 1001));
        assertThat(store.takeKept("orders", 651, 1000, MAX)).as("from the rest's first value: the rest, whole")
                .hasValue(new ReservedRange(651, 1001));
        assertThat(store.takeKept("orders", 402, 10, MAX)).as("none starts at or above 402").isEmpty();
        assertThat(store.keptRanges("orders")).containsExactly(new ReservedRange(401, 501));
        assertThat(store.nextValue("orders")).as("the row, untouched").hasValue(1001);
    }

    /**
     * A running generator's refills take kept ranges too: the lowest that starts above the values it reserved, split
     * to its block, the rest kept. A range kept below its values stays kept for another instance (its values keep
     * increasing), and the row moves only once no range above them is kept.
     */
    @TestFactory
    default Stream<DynamicTest> aRefillTakesTheLowestKeptRangeAboveItsValuesSplitToItsBlockAndTheRestStaysKept() {
        return perStrategy(List.of(Strategy.BATCH, Strategy.ASYNC_BATCH), strategy -> {
            SequenceStore store = subject().newStore();
            create(store, "orders", 1, 100, MAX);
            store.reserve("orders", 1000, MAX); // [1, 1001), held by instances that stop below
            assertThat(store.keep("orders", 201, 301)).isTrue();
            assertThat(store.keep("orders", 401, 1001)).isTrue();
            SequenceSettings settings = settings(strategy).blockSize(100).lowWatermark(50).adaptive(false).build();
            // Refills run on the caller's thread, so what each take leaves in the store is known.
            try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings)
                    .executor(Runnable::run).build();
                    SequenceRegistry later = SequenceRegistry.builder(subject().sameRows(store)).defaults(settings)
                            .build()) {
                Sequence orders = registry.sequence("orders");
                assertThat(orders.next()).as("the first block: the lowest kept range").isEqualTo(201);
                assertThat(store.keep("orders", 101, 151)).as("kept by an instance that stops now").isTrue();

                long[] values = take(orders, 199);
                assertThat(values).as("the rest of the first block, then the lowest range above it, split")
                        .containsExactly(LongStream.concat(LongStream.range(202, 301), LongStream.range(401, 501))
                                .toArray());
                // ASYNC_BATCH has also taken its next block, in its refill at the low watermark.
                long restFrom = strategy == Strategy.BATCH ? 501 : 601;
                assertThat(store.keptRanges("orders")).as("the range below its values and the split one's rest")
                        .containsExactly(new ReservedRange(101, 151), new ReservedRange(restFrom, 1001));
                assertThat(store.nextValue("orders")).as("the row, untouched").hasValue(1001);

                values = take(orders, 600);
                assertThat(values).as("the kept values above, lowest first, then the row")
                        .containsExactly(LongStream.concat(LongStream.range(501, 1001), LongStream.range(1001, 1101))
                                .toArray());
                assertThat(store.keptRanges("orders")).as("only the range below its values")
                        .containsExactly(new ReservedRange(101, 151));
                assertThat(later.sequence("orders").next()).as("another instance's first block takes it")
                        .isEqualTo(101);
            }
        });
    }

    /**
     * Refills do not look for kept ranges at every block: after a look that found none, the next one comes after
     * sixteen blocks from the row and a second, so a fleet with nothing kept pays no extra round trip per refill; a
     * look that took a range looks again at the next refill.
     */
    @Test
    default void afterALookThatFoundNoKeptRangeRefillsLookAgainOnlyAfterSixteenBlocksFromTheRowAndASecond() {
        SequenceStore rows = subject().newStore();
        create(rows, "orders", 1, 10, MAX);
        AtomicInteger looks = new AtomicInteger();
        SequenceStore store = new ForwardingSequenceStore(rows) {
            @Override
            public Optional<ReservedRange> takeKept(String sequence, long count, long maxValue) {
                looks.incrementAndGet();
                return delegate.takeKept(sequence, count, maxValue);
            }

            @Override
            public Optional<ReservedRange> takeKept(String sequence, long from, long count, long maxValue) {
                looks.incrementAndGet();
                return delegate.takeKept(sequence, from, count, maxValue);
            }
        };
        AtomicLong now = new AtomicLong();
        SequenceSettings settings = settings(Strategy.BATCH).blockSize(10).adaptive(false).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).ticker(now::get).build()) {
            Sequence orders = registry.sequence("orders");
            LongStream.Builder received = LongStream.builder();
            Arrays.stream(take(orders, 170)).forEach(received); // 17 blocks of the row, [1, 171)
            assertThat(looks).as("only the first block looked: sixteen blocks, but no second, since").hasValue(1);

            SequenceStore other = subject().sameRows(rows);
            assertThat(other.reserve("orders", 30, MAX)).isEqualTo(new ReservedRange(171, 201));
            assertThat(other.keep("orders", 171, 201)).as("an instance that stops").isTrue();
            now.addAndGet(Duration.ofSeconds(1).toNanos());
            Arrays.stream(take(orders, 30)).forEach(received);
            assertThat(looks).as("a look after the second, and at each refill after one that took a range")
                    .hasValue(4);
            Arrays.stream(take(orders, 10)).forEach(received);
            assertThat(looks).as("a look that found nothing: this block is the row's").hasValue(5);
            Arrays.stream(take(orders, 10)).forEach(received);
            now.addAndGet(Duration.ofSeconds(1).toNanos());
            Arrays.stream(take(orders, 10)).forEach(received);
            assertThat(looks).as("a second, but two blocks of the row since the last look").hasValue(5);
            assertThat(received.build().toArray()).containsExactly(LongStream.range(1, 231).toArray());
            assertThat(rows.keptRanges("orders")).isEmpty();
        }
    }

    /**
     * Instances on stores of their own start together on many kept ranges and climb them in their refills, racing
     * for the same ranges and splitting them, then reserve from the row: every value is handed out once, each
     * thread's values increase, and after all stopped every value below the row is received, kept or discarded.
     */
    @TestFactory
    default Stream<DynamicTest> instancesRacingForKeptRangesInTheirRefillsHandOutEveryValueOnce() {
        return perStrategy(List.of(Strategy.BATCH, Strategy.ASYNC_BATCH), strategy -> {
            SequenceStore store = subject().newStore();
            create(store, "orders", 1, 25, MAX);
            store.reserve("orders", 1000, MAX);
            for (long first = 1; first < 1001; first += 40) {
                assertThat(store.keep("orders", first, Math.min(first + 40, 1001))).isTrue();
            }
            SequenceSettings settings = settings(strategy).blockSize(25).lowWatermark(10).adaptive(false).build();
            ExecutorService pool = Executors.newCachedThreadPool();
            List<SequenceRegistry> registries = new java.util.ArrayList<>();
            try {
                List<Callers> callers = new java.util.ArrayList<>();
                List<Sequence> sequences = new java.util.ArrayList<>();
                CountDownLatch go = new CountDownLatch(1);
                for (int i = 0; i < INSTANCES + 1; i++) {
                    SequenceRegistry registry = SequenceRegistry.builder(subject().sameRows(store)).defaults(settings)
                            .build();
                    registries.add(registry);
                    sequences.add(registry.sequence("orders"));
                    callers.add(new Callers());
                    callers.get(i).start(pool, 2, sequences.get(i), this::take, go);
                }
                go.countDown();
                await().atMost(Duration.ofMinutes(2)).until(() -> sequences.stream()
                        .allMatch(sequence -> sequence.stats().issued() > 300));
                LongStream.Builder received = LongStream.builder();
                long discarded = 0;
                for (int i = 0; i < registries.size(); i++) {
                    registries.get(i).close();
                    callers.get(i).closeReturnedAt = System.nanoTime();
                }
                for (int i = 0; i < registries.size(); i++) {
                    Arrays.stream(callers.get(i).awaitAll()).forEach(received);
                    assertThat(callers.get(i).unexpected).isEmpty();
                    assertIncreasingPerThread(callers.get(i));
                    discarded += sequences.get(i).stats().discarded();
                }
                assertEveryValueBelowTheRowReceivedKeptOrDiscarded(store,
                        Concurrently.assertUnique(received.build().toArray()), discarded);
            } finally {
                pool.shutdownNow();
                registries.forEach(SequenceRegistry::close);
            }
        });
    }

    /**
     * Asserts that every value below the row's {@code next_value} was received (each once: {@code sorted} is the
     * sorted unique values received), is still kept for the fleet, or was discarded by a bulk call cut short by a
     * close, and that none above it was received.
     */
    private static void assertEveryValueBelowTheRowReceivedKeptOrDiscarded(SequenceStore store, long[] sorted,
            long discarded) {
        long next = store.nextValue("orders").orElseThrow();
        long kept = store.keptRanges("orders").stream().mapToLong(ReservedRange::count).sum();
        assertThat(sorted).isNotEmpty();
        assertThat(sorted[sorted.length - 1]).isLessThan(next);
        assertThat(next - 1).as("values below next_value: received, kept, or discarded by bulk calls cut short")
                .isEqualTo(sorted.length + kept + discarded);
    }

    /** Asserts that each caller thread received increasing values: a JVM's blocks never go below its earlier ones. */
    private static void assertIncreasingPerThread(Callers callers) {
        for (long[] ofOneThread : callers.values) {
            for (int i = 1; i < ofOneThread.length; i++) {
                assertThat(ofOneThread[i]).as("a thread's value after " + ofOneThread[i - 1])
                        .isGreaterThan(ofOneThread[i - 1]);
            }
        }
    }

    @Test
    default void aGeneratorStartingOnALargeKeptRangeTakesItsFirstBlockFromItsLowestValues() {
        SequenceStore store = subject().newStore();
        create(store, "orders", 1, 100, MAX);
        store.reserve("orders", 100_000, MAX);
        assertThat(store.keep("orders", 3, 100_001)).as("what a stopped instance's largest block left").isTrue();
        SequenceSettings settings = settings(Strategy.BATCH).blockSize(100).build();
        try (SequenceRegistry first = SequenceRegistry.builder(store).defaults(settings).build();
                SequenceRegistry second = SequenceRegistry.builder(subject().sameRows(store)).defaults(settings)
                        .build()) {
            assertThat(first.sequence("orders").next()).isEqualTo(3);
            assertThat(first.sequence("orders").stats().blockEnd()).as("a block of the configured size").isEqualTo(103);
            assertThat(second.sequence("orders").next()).as("the next instance: the values right after").isEqualTo(103);
            assertThat(store.keptRanges("orders")).containsExactly(new ReservedRange(203, 100_001));
        }
    }

    /** Takers on stores of their own race for kept ranges: each range goes to exactly one of them. */
    @Test
    default void takersRacingForKeptRangesEachGetDifferentOnes() throws Exception {
        SequenceStore store = subject().newStore();
        create(store, "orders", 1, 10, MAX);
        int ranges = 24;
        store.reserve("orders", 10L * ranges, MAX);
        for (int i = 0; i < ranges; i++) {
            assertThat(store.keep("orders", 1 + 10L * i, 1 + 10L * i + 10)).isTrue();
        }
        long[] taken = Concurrently.run(4, thread -> {
            SequenceStore mine = subject().sameRows(store);
            LongStream.Builder values = LongStream.builder();
            for (;;) {
                Optional<ReservedRange> range;
                try {
                    range = mine.takeKept("orders", MAX);
                } catch (SequenceStoreException e) {
                    if (e.isTransient()) {
                        continue; // a deadlock's victim or a serialization failure: it took nothing
                    }
                    throw e;
                }
                if (range.isEmpty() && mine.keptRanges("orders").isEmpty()) {
                    return values.build().toArray();
                }
                range.ifPresent(r -> LongStream.range(r.first(), r.end()).forEach(values));
            }
        });
        assertThat(Concurrently.assertUnique(taken)).as("every kept value, each taken once")
                .containsExactly(LongStream.range(1, 1 + 10L * ranges).toArray());
    }

    /** Instances that take part in a rolling deploy, each a registry over a store of its own on the same rows. */
    int INSTANCES = 3;
    /** Deploy rounds: each instance in turn stopped and replaced. */
    int ROUNDS = 2;

    /** An instance of the fleet: a registry and the threads taking values from its sequence "orders". */
    record Instance(SequenceRegistry registry, Sequence orders, Callers callers) {
    }

    /**
     * A rolling deploy under load: three instances take values on one row, and each in turn is stopped gracefully
     * and replaced, twice over, while the others keep reserving. Whether a stop gives back or keeps depends on who
     * reserved last (a test above forces each case); either way nothing a graceful stop held is lost: every value
     * below the row's final next_value was received by a caller, is still kept for the fleet, or was discarded by a
     * bulk call cut short by its close (a caller's loss, not the stop's); no value is received twice, and each
     * instance's values are increasing per thread.
     */
    @TestFactory
    default Stream<DynamicTest> aRollingDeployUnderLoadLosesNothingToGracefulStopsAndHandsOutEveryValueOnce() {
        return perStrategy(List.of(Strategy.BATCH, Strategy.ASYNC_BATCH), strategy -> {
            SequenceStore store = subject().newStore();
            Fleet fleet = rollingDeploy(strategy, store, () -> subject().sameRows(store));
            assertThat(fleet.reports).as("close reports").allSatisfy(report -> {
                assertThat(report.lost()).as(report.message()).isZero();
                assertThat(report.failed()).as(report.message()).isFalse();
            });
            assertEveryValueBelowTheRowReceivedKeptOrDiscarded(store, fleet.received, fleet.discarded);
        });
    }

    /**
     * The same rolling deploy with crashes injected between the steps ({@link FaultInjectingStore}): give-backs,
     * ranges kept and kept ranges taken fail before the store did them or after it committed them. Ranges may be
     * lost then, never handed out twice: no value is received twice, the row lies above every value received, and
     * no range still kept holds a value received.
     */
    @TestFactory
    default Stream<DynamicTest> crashesBetweenTheStepsOfStopsAndStartsLoseRangesButNeverHandOutAValueTwice() {
        return perStrategy(List.of(Strategy.BATCH, Strategy.ASYNC_BATCH), strategy -> {
            SequenceStore store = subject().newStore();
            Fleet fleet = rollingDeploy(strategy, store, () -> new FaultInjectingStore(subject().sameRows(store)));
            assertThat(fleet.reports.stream().filter(CloseReport::failed)).as("stops that met an injected crash")
                    .isNotEmpty();
            long next = store.nextValue("orders").orElseThrow();
            assertThat(fleet.received[fleet.received.length - 1]).isLessThan(next);
            for (ReservedRange kept : store.keptRanges("orders")) {
                assertThat(kept.end()).as("kept range " + kept).isLessThanOrEqualTo(next);
                assertThat(Arrays.stream(fleet.received).filter(value -> value >= kept.first() && value < kept.end()))
                        .as("values received that kept range " + kept + " holds").isEmpty();
            }
        });
    }

    /** What a rolling deploy left: every value received (sorted, unique), the close reports, the values discarded. */
    record Fleet(long[] received, List<CloseReport> reports, long discarded) {
    }

    /**
     * Runs {@link #INSTANCES} instances, two caller threads each, on the sequence "orders" of the rows of
     * {@code store}, and stops and replaces each in turn, {@link #ROUNDS} times; then stops them all. Each new
     * instance is started only after the one it replaces has stopped, and the next stop waits until the new one has
     * handed out values from its first block (the kept range, when there is one) and a block of the row.
     */
    default Fleet rollingDeploy(Strategy strategy, SequenceStore store,
            java.util.function.Supplier<SequenceStore> storeOfAnInstance) throws Exception {
        create(store, "orders", 1, 100, MAX);
        ExecutorService pool = Executors.newCachedThreadPool();
        List<Instance> all = new java.util.ArrayList<>();
        List<CloseReport> reports = new java.util.ArrayList<>();
        try {
            Instance[] fleet = new Instance[INSTANCES];
            for (int i = 0; i < INSTANCES; i++) {
                fleet[i] = startInstance(strategy, storeOfAnInstance.get(), pool);
                all.add(fleet[i]);
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (int i = 0; i < INSTANCES; i++) {
                    Instance running = fleet[i];
                    await().atMost(Duration.ofMinutes(2)).until(() -> running.orders().stats().issued() > 150);
                    reports.addAll(stop(running));
                    fleet[i] = startInstance(strategy, storeOfAnInstance.get(), pool);
                    all.add(fleet[i]);
                }
            }
            for (Instance running : fleet) {
                await().atMost(Duration.ofMinutes(2)).until(() -> running.orders().stats().issued() > 150);
                reports.addAll(stop(running));
            }
            LongStream.Builder received = LongStream.builder();
            long discarded = 0;
            for (Instance instance : all) {
                Arrays.stream(instance.callers().awaitAll()).forEach(received);
                assertThat(instance.callers().unexpected).isEmpty();
                assertIncreasingPerThread(instance.callers());
                assertThat(instance.callers().endings).allSatisfy(message ->
                        assertThat(message).contains("sequence 'orders'").contains("closed"));
                discarded += instance.orders().stats().discarded();
            }
            return new Fleet(Concurrently.assertUnique(received.build().toArray()), reports, discarded);
        } finally {
            pool.shutdownNow();
            all.forEach(instance -> instance.registry().close());
        }
    }

    private Instance startInstance(Strategy strategy, SequenceStore store, ExecutorService pool) {
        SequenceRegistry registry = SequenceRegistry.builder(store).defaults(closingSettings(strategy)).build();
        Sequence orders = registry.sequence("orders");
        Callers callers = new Callers();
        CountDownLatch go = new CountDownLatch(1);
        callers.start(pool, 2, orders, this::take, go);
        go.countDown();
        return new Instance(registry, orders, callers);
    }

    private static List<CloseReport> stop(Instance instance) {
        List<CloseReport> reports = instance.registry().closeAndReport();
        instance.callers().closeReturnedAt = System.nanoTime();
        return reports;
    }

    /**
     * Closing a registry while threads take values as fast as they can: every caller ends with a
     * {@link SequenceUnavailableException} that names the sequence and says it is closed; no call that began after
     * {@code close()} returned gets a value; and every value below the row's final {@code next_value} was received by
     * a caller or counted as discarded (a bulk call cut short by the close), none above it was.
     */
    @TestFactory
    default Stream<DynamicTest> closingDuringHeavyUseFailsLaterCallersClearlyAndGivesBackExactlyTheUnusedTail() {
        return perStrategy(strategiesCountedExactly(), strategy -> {
            SequenceStore store = subject().newStore();
            SequenceRegistry registry = SequenceRegistry.builder(store).defaults(closingSettings(strategy)).build();
            Sequence orders = registry.sequence("orders");
            ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
            try {
                Callers callers = new Callers();
                CountDownLatch go = new CountDownLatch(1);
                callers.start(pool, CALLERS, orders, this::take, go);
                go.countDown();
                // Closed while the callers are taking values and refilling: after a few blocks, however long
                // the machine takes to get there.
                long taken = strategy == Strategy.SYNC || strategy == Strategy.ASYNC ? 5L * CALLERS : 201;
                await().atMost(Duration.ofMinutes(2)).until(() -> orders.stats().issued() >= taken);
                registry.close();
                callers.closeReturnedAt = System.nanoTime();
                long[] received = callers.awaitAll();

                assertThat(callers.unexpected).isEmpty();
                assertThat(callers.endings).hasSize(CALLERS).allSatisfy(message ->
                        assertThat(message).contains("sequence 'orders'").contains("closed"));
                assertThatThrownBy(() -> take(orders, 1)).as("a caller after close")
                        .isInstanceOf(SequenceUnavailableException.class).hasMessageContaining("sequence 'orders'");
                long[] sorted = Concurrently.assertUnique(received);
                long next = store.nextValue("orders").orElseThrow();
                long discarded = orders.stats().discarded();
                assertThat(sorted).isNotEmpty();
                assertThat(sorted[sorted.length - 1]).isLessThan(next);
                assertThat(next - 1).as("values below next_value: received + discarded by bulk calls cut short")
                        .isEqualTo(sorted.length + discarded);
                assertThat(orders.stats().issued()).isEqualTo(sorted.length);
                if (strategy == Strategy.SYNC || strategy == Strategy.ASYNC) {
                    Concurrently.assertContiguousFrom(1, sorted);
                }
            } finally {
                pool.shutdownNow();
            }
        });
    }

    /**
     * With a second generator still reserving, the first gives back nothing to the row (it never moves below the
     * second's), and keeps its unused values for the fleet instead.
     */
    @TestFactory
    default Stream<DynamicTest> aGeneratorClosingWhileAnotherKeepsReservingNeverGivesBackWhatIsNotItsOwn() {
        return perStrategy(List.of(Strategy.BATCH, Strategy.ASYNC_BATCH), strategy -> {
            TwoGenerators two = twoGenerators(strategy);
            SequenceStore store = two.store();
            Sequence a = two.a();
            Sequence b = two.b();
            ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
            try {
                Callers callersOfA = new Callers();
                Callers callersOfB = new Callers();
                CountDownLatch go = new CountDownLatch(1);
                callersOfA.start(pool, CALLERS / 2, a, this::take, go);
                callersOfB.start(pool, CALLERS / 2, b, this::take, go);
                go.countDown();
                await().atMost(Duration.ofMinutes(2))
                        .until(() -> a.stats().issued() > 200 && b.stats().issued() > 200);

                two.first().close();
                callersOfA.closeReturnedAt = System.nanoTime();
                long reservedBySecond = b.stats().highestReserved(); // committed in the row before it is read below
                assertThat(store.nextValue("orders").orElseThrow())
                        .as("next_value right after the first generator closed").isGreaterThan(reservedBySecond);
                // The second generator goes on reserving after the first closed, then closes too.
                await().atMost(Duration.ofMinutes(2)).until(() -> b.stats().highestReserved() > reservedBySecond);
                two.second().close();
                callersOfB.closeReturnedAt = System.nanoTime();

                long[] receivedA = callersOfA.awaitAll();
                long[] receivedB = callersOfB.awaitAll();
                assertThat(callersOfA.unexpected).isEmpty();
                assertThat(callersOfB.unexpected).isEmpty();
                assertEveryValueBelowTheRowReceivedKeptOrDiscarded(store, Concurrently.assertUnique(
                        LongStream.concat(Arrays.stream(receivedA), Arrays.stream(receivedB)).toArray()),
                        a.stats().discarded() + b.stats().discarded());
            } finally {
                pool.shutdownNow();
            }
        });
    }
}
