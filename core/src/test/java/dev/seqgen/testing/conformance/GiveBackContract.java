package dev.seqgen.testing.conformance;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.spi.ReservedRange;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.Concurrently;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The contract of a store that takes an unused tail back ({@link SequenceStore#giveBack}, a compare-and-set on the
 * row): a generator closing gives back exactly its unused tail when nobody reserved after it, and nothing that is not
 * its own otherwise, even under load.
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
    default Stream<DynamicTest> theTailIsGivenBackOnlyByTheGeneratorThatReservedLast() {
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
            TwoGenerators two = new TwoGenerators(store, first, second, a, b);

            two.first().close();
            assertThat(store.nextValue("orders")).as("row after the first closed: b reserved after it").hasValue(201);
            assertThat(a.stats().discarded()).as("a's tail, not given back").isEqualTo(99);

            two.second().close();
            assertThat(store.nextValue("orders")).as("row after the second closed: nobody reserved after it")
                    .hasValue(102);
            assertThat(b.stats().discarded()).isZero();

            try (SequenceRegistry third = SequenceRegistry.builder(store).defaults(closingSettings(strategy)).build()) {
                assertThat(third.sequence("orders").next()).as("the given-back tail is used again, once")
                        .isEqualTo(102);
            }
        });
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

    /** With a second generator still reserving, the first gives back nothing: the row never moves below the second's. */
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
                long[] sorted = Concurrently.assertUnique(LongStream.concat(Arrays.stream(receivedA),
                        Arrays.stream(receivedB)).toArray());
                long next = store.nextValue("orders").orElseThrow();
                long discarded = a.stats().discarded() + b.stats().discarded();
                assertThat(sorted[sorted.length - 1]).isLessThan(next);
                assertThat(next - 1).as("values below next_value: received or discarded by either")
                        .isEqualTo(sorted.length + discarded);
            } finally {
                pool.shutdownNow();
            }
        });
    }
}
