package dev.seqgen;

import dev.seqgen.spi.ReservedRange;
import dev.seqgen.testing.ForwardingSequenceStore;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fleet-aware control loop driven through an async-batch sequence on the test's {@link Ticker}: a row whose
 * reservations take the time the test says, a caller that takes one value per simulated millisecond, and the
 * background refill run on the caller's thread, so that every reading of the clock is the test's.
 */
class FleetSpacingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AtomicLong now = new AtomicLong();

    /** A row whose reservations take {@link #latency} on the test's clock: the service time and any queue. */
    private final class TimedRow extends ForwardingSequenceStore {

        volatile long latency = 10 * MS;

        TimedRow() {
            super(new InMemorySequenceStore());
        }

        @Override
        public ReservedRange reserve(String sequence, long count, long maxValue) {
            now.addAndGet(latency);
            return delegate.reserve(sequence, count, maxValue);
        }
    }

    /** Takes values at one per millisecond for {@code seconds} and returns the reservations made meanwhile. */
    private long take(Sequence sequence, int seconds) {
        long before = sequence.stats().reservations();
        for (int i = 0; i < seconds * 1000; i++) {
            now.addAndGet(MS);
            sequence.next();
        }
        return sequence.stats().reservations() - before;
    }

    @Test
    void anInstanceWhoseReservationsQueueAtTheRowSpacesItsRefillsOutTenfoldAndKeepsThemSpacedWhenTheQueueIsGone() {
        TimedRow row = new TimedRow();
        try (SequenceRegistry registry = SequenceRegistry.builder(row).ticker(now::get).executor(Runnable::run)
                .build()) {
            Sequence orders = registry.sequence("orders");
            take(orders, 30);
            long alone = take(orders, 60);
            assertThat(orders.stats().blockSize()).as("alone: 1000 values, a refill a second").isEqualTo(1000);
            assertThat(alone).isBetween(55L, 65L);

            // Other instances' reservations now stand before each of this one's: 30 ms of queue at the row.
            row.latency = 40 * MS;
            take(orders, 60);
            row.latency = 10 * MS;
            long afterQueue = take(orders, 600);
            assertThat(orders.stats().blockSize()).as("the largest block").isEqualTo(100_000);
            assertThat(afterQueue).as("reservations in ten minutes, no more than in one minute before the queue")
                    .isLessThanOrEqualTo(alone);
            assertThat(orders.stats().waits()).as("no caller waited for a refill").isZero();
        }
    }

    @Test
    void aRowThatNeverQueuesLeavesTheLoopAsItWasForOneInstanceAlone() {
        TimedRow row = new TimedRow();
        try (SequenceRegistry registry = SequenceRegistry.builder(row).ticker(now::get).executor(Runnable::run)
                .build()) {
            Sequence orders = registry.sequence("orders");
            take(orders, 600);
            assertThat(orders.stats().blockSize()).as("the configured block lasts the target interval").isEqualTo(1000);
            assertThat(orders.stats().refillPoint()).isEqualTo(250);
            assertThat(orders.stats().waits()).isZero();
        }
    }

    @Test
    void aSequenceWarmedUpOnAnIdleRowTakesTheConfiguredBlockAndGrowsOnlyAsMuchAsTheRowsQueueJustifies() {
        TimedRow row = new TimedRow();
        try (SequenceRegistry registry = SequenceRegistry.builder(row).ticker(now::get).executor(Runnable::run)
                .build()) {
            registry.warmUp(List.of("orders"), Duration.ofSeconds(5));
            Sequence orders = registry.sequence("orders");
            assertThat(orders.stats().remaining()).as("two blocks of the configured size, not 100,000").isEqualTo(2000);
            take(orders, 60);
            assertThat(orders.stats().blockSize()).as("a refill a second: the configured block lasts the target")
                    .isEqualTo(1000);
            assertThat(orders.stats().highestReserved()).as("values reserved: what a minute took, and two blocks")
                    .isLessThanOrEqualTo(60_000 + 2 * 1000);

            // Other instances' reservations now stand before one of this one's: 30 ms of queue at the row.
            row.latency = 40 * MS;
            take(orders, 2);
            row.latency = 10 * MS;
            take(orders, 10);
            assertThat(orders.stats().blockSize()).as("sized to last the spaced interval at one value per ms")
                    .isBetween(4000L, 16_000L);
            assertThat(orders.stats().waits()).isZero();
        }
    }
}
