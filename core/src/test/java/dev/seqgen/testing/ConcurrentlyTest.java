package dev.seqgen.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The test helper that races tasks: when one task fails, no other task outlives the call. */
class ConcurrentlyTest {

    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aFailingTaskIsReportedOnlyOnceEveryOtherTaskHasEnded() {
        CountDownLatch blockerRunning = new CountDownLatch(1);
        AtomicBoolean blockerEnded = new AtomicBoolean();
        assertThatThrownBy(() -> Concurrently.run(2, thread -> {
            if (thread == 0) {
                blockerRunning.countDown();
                try {
                    new CountDownLatch(1).await(); // as a task blocked in a statement, until interrupted
                } finally {
                    blockerEnded.set(true);
                }
                return new long[0];
            }
            blockerRunning.await();
            throw new IllegalStateException("the failing task");
        })).hasRootCauseMessage("the failing task");
        assertThat(blockerEnded).as("the blocked task ended before run() returned").isTrue();
    }

    @Test
    void theValuesOfEveryTaskAreReturned() throws Exception {
        assertThat(Concurrently.run(3, thread -> new long[] {thread, 10 + thread}))
                .containsExactlyInAnyOrder(0, 1, 2, 10, 11, 12);
    }
}
