package dev.seqgen.regression;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ASYNC_BATCH with a refill executor that throws an {@link Error} once (an executor that cannot create a native
 * thread throws {@code OutOfMemoryError}). The refill used to be published before the hand-off and never
 * completed: the caller that claimed the trigger offset got the error instead of its value, and every later
 * caller timed out, for good, even with the executor working again. Now the caller keeps its value, the failed
 * refill is replaced, and every value is handed out once, in order.
 */
class RefillExecutorThatThrewAnErrorStalledAsyncBatchTest {

    @Test
    void theTriggerCallerKeepsItsValueAndTheSequenceRecoversWhenTheExecutorWorksAgain() {
        AtomicInteger handOffs = new AtomicInteger();
        Executor failsOnce = task -> {
            if (handOffs.incrementAndGet() == 2) { // the first hand-off reserves the first block; the second fails
                throw new OutOfMemoryError("unable to create native thread: possibly out of memory");
            }
            Thread thread = new Thread(task, "refill");
            thread.setDaemon(true);
            thread.start();
        };
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(10)
                .lowWatermark(5).acquireTimeout(Duration.ofSeconds(2)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).executor(failsOnce)
                .build()) {
            Sequence ids = registry.sequence("ids");
            for (long expected = 1; expected <= 50; expected++) {
                assertThat(ids.next()).isEqualTo(expected);
            }
            assertThat(handOffs.get()).isGreaterThan(2);
        }
    }
}
