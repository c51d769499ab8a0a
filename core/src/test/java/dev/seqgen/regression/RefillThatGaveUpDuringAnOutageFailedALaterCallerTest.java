package dev.seqgen.regression;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.Ticker;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A caller came to an exhausted ASYNC_BATCH block while the background refill was still retrying an outage.
 * The refill then gave up on its own deadline, and the caller got "the background refill failed" although
 * its own acquire timeout had time left and the store was back. It must start a fresh refill instead.
 */
class RefillThatGaveUpDuringAnOutageFailedALaterCallerTest {

    @Test
    void waitingCallerStartsAFreshRefillWhenTheOneItWaitedForGaveUpOnTransientErrors() throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore();
        BlockingQueue<Runnable> refills = new LinkedBlockingQueue<>();
        // The refill thread's clock races ahead, so that it gives up after its first failed attempt; the
        // caller's clock stands still, so its own deadline always leaves time.
        Set<Thread> outageRefillers = ConcurrentHashMap.newKeySet();
        AtomicLong refillerClock = new AtomicLong();
        Ticker ticker = () -> outageRefillers.contains(Thread.currentThread())
                ? refillerClock.addAndGet(TimeUnit.SECONDS.toNanos(10)) : 0;
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(10)
                .lowWatermark(0).acquireTimeout(Duration.ofMinutes(1)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).executor(refills::add)
                .ticker(ticker).build()) {
            Sequence orders = registry.sequence("orders");
            refills.take().run(); // the first block: [1, 11)
            for (long expected = 1; expected <= 10; expected++) {
                assertThat(orders.next()).isEqualTo(expected); // taking 10 queues the refill of [11, 21)
            }

            FutureTask<Long> caller = new FutureTask<>(orders::next);
            Thread callerThread = new Thread(caller);
            callerThread.start();
            // the caller waits for the refill
            await().atMost(Duration.ofMinutes(1)).until(() -> callerThread.getState() == Thread.State.TIMED_WAITING);

            store.down(true);
            Thread refiller = new Thread(refills.take());
            outageRefillers.add(refiller);
            refiller.start();
            refiller.join(); // the refill gave up on the outage
            store.down(false);

            Runnable fresh = refills.poll(1, TimeUnit.MINUTES);
            assertThat(fresh).as("the waiting caller started a fresh refill").isNotNull();
            fresh.run();
            assertThat(caller.get(1, TimeUnit.MINUTES)).isEqualTo(11);
        }
    }
}
