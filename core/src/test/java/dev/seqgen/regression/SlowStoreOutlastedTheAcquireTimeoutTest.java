package dev.seqgen.regression;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.testing.GatedStore;
import dev.seqgen.testing.InMemorySequenceStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A store call that takes longer than the acquire timeout (held at a gate until the caller has given up, against
 * 200 ms). BATCH and ASYNC used to run it
 * on the caller's thread and return a value after the full 2 s; the acquire timeout bounded only the retries
 * between calls. Now the caller is told at its deadline that no value came, and nothing is lost or handed out
 * twice: a BATCH block that arrives late is used by the next caller, a late ASYNC value is counted as discarded.
 */
class SlowStoreOutlastedTheAcquireTimeoutTest {

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"BATCH", "ASYNC"})
    void theCallerIsToldAtItsDeadlineAndLaterCallersGetUniqueValues(Strategy strategy) throws Exception {
        GatedStore store = new GatedStore(new InMemorySequenceStore(), 1);
        SequenceSettings settings = SequenceSettings.builder().strategy(strategy).blockSize(10).lowWatermark(2)
                .acquireTimeout(Duration.ofMillis(200)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings).build()) {
            Sequence ids = registry.sequence("ids");

            Throwable slow = catchThrowable(ids::next);
            assertThat(slow).as("a value that waited for the store, not the 200 ms acquire timeout")
                    .isInstanceOf(SequenceUnavailableException.class).hasMessageContaining("acquire timeout")
                    .hasMessageContaining("'ids'");

            store.open();
            // the late reservation arrives
            await().atMost(Duration.ofMinutes(1)).until(() -> ids.stats().reservations() == 1);
            Set<Long> values = new HashSet<>();
            for (int i = 0; i < 25; i++) {
                assertThat(values.add(ids.next())).isTrue();
            }
            if (strategy == Strategy.BATCH) {
                assertThat(values).as("the late block is used, not lost").contains(1L);
            } else {
                assertThat(values).doesNotContain(1L);
                await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> assertThat(ids.stats().discarded())
                        .as("the late ASYNC value, never handed out").isEqualTo(1));
            }
        }
    }
}
