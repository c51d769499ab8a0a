package dev.seqgen.regression;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A store call that takes longer than the acquire timeout (2 s against 200 ms). BATCH and ASYNC used to run it
 * on the caller's thread and return a value after the full 2 s; the acquire timeout bounded only the retries
 * between calls. Now the caller is told at its deadline that no value came, and nothing is lost or handed out
 * twice: a BATCH block that arrives late is used by the next caller, a late ASYNC value is counted as discarded.
 */
class SlowStoreOutlastedTheAcquireTimeoutTest {

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC"})
    void theCallerIsToldAtItsDeadlineAndLaterCallersGetUniqueValues(Strategy strategy) throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore().latency(Duration.ofSeconds(2));
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(2)
                .acquireTimeout(Duration.ofMillis(200)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence ids = registry.sequence("ids");

            Throwable slow = catchThrowable(ids::next);
            assertThat(slow).as("a value that took the store's 2 s, not the 200 ms acquire timeout")
                    .isInstanceOf(SequenceUnavailableException.class).hasMessageContaining("acquire timeout")
                    .hasMessageContaining("'ids'");

            store.latency(Duration.ZERO);
            Thread.sleep(2_500); // the late reservation arrives
            Set<Long> values = new HashSet<>();
            for (int i = 0; i < 25; i++) {
                assertThat(values.add(ids.next())).isTrue();
            }
            if (strategy == Strategy.BATCH) {
                assertThat(values).as("the late block is used, not lost").contains(1L);
            } else {
                assertThat(values).doesNotContain(1L);
                assertThat(ids.stats().discarded()).as("the late ASYNC value, never handed out").isEqualTo(1);
            }
        }
    }
}
