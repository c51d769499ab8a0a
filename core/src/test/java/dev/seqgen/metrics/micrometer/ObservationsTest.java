package dev.seqgen.metrics.micrometer;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.testing.InMemorySequenceStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Micrometer observations of reservations, background refills and waits, with {@link TestObservationRegistry}:
 * names, low-cardinality key values, outcomes, and a refill that is the child of the caller whose value
 * triggered it although it runs on another thread.
 */
class ObservationsTest {

    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    ObservationsTest() {
        observations.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }
        });
    }

    @Test
    void aBackgroundRefillIsTheChildOfTheCallerThatTriggeredIt() throws Exception {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(10)
                .lowWatermark(5).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings)
                .metrics(new MicrometerMetricsTrackerFactory(new SimpleMeterRegistry(), observations)).build()) {
            Sequence ids = registry.sequence("ids");
            // The first block, reserved in the background at creation, has landed.
            await().atMost(Duration.ofMinutes(1)).until(() -> ids.stats().remaining() == 10);
            Observation request = Observation.start("http.request", observations);
            try (Observation.Scope scope = request.openScope()) {
                for (int i = 0; i < 6; i++) { // the sixth value is the trigger offset: 10 - 1 - 5 = 4 (0-based)
                    ids.next();
                }
            }
            request.stop();
            // Both refills (the first block's and the triggered one) have ended and been observed.
            await().atMost(Duration.ofMinutes(1)).until(() -> stopped.stream()
                    .filter(c -> c.getName().equals(MicrometerMetricsTrackerFactory.REFILL_OBSERVATION)).count() == 2);
        }
        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo(MicrometerMetricsTrackerFactory.REFILL_OBSERVATION).that()
                .hasLowCardinalityKeyValue("sequence", "ids")
                .hasLowCardinalityKeyValue("strategy", "async-batch")
                .hasLowCardinalityKeyValue("store", new InMemorySequenceStore().name())
                .hasLowCardinalityKeyValue("outcome", "success");
        TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo(MicrometerMetricsTrackerFactory.RESERVATION_OBSERVATION);
        assertThat(stopped).filteredOn(c -> c.getName().equals(MicrometerMetricsTrackerFactory.REFILL_OBSERVATION))
                .anySatisfy(refill -> assertThat(refill.getParentObservation()).isNotNull()
                        .satisfies(parent -> assertThat(parent.getContextView().getName()).isEqualTo("http.request")));
        assertThat(stopped).filteredOn(c -> c.getName().equals(MicrometerMetricsTrackerFactory.RESERVATION_OBSERVATION))
                .allSatisfy(reservation -> assertThat(reservation.getParentObservation()).as("inside its refill")
                        .isNotNull());
    }

    @Test
    void aCallersWaitAndAFailedReservationAreObservedWithTheirOutcome() {
        InMemorySequenceStore store = new InMemorySequenceStore();
        SequenceSettings settings = SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(10)
                .acquireTimeout(Duration.ofMillis(200)).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).defaults(settings)
                .metrics(new MicrometerMetricsTrackerFactory(new SimpleMeterRegistry(), observations)).build()) {
            Sequence ids = registry.sequence("ids");
            assertThat(ids.next()).isEqualTo(1);
            for (int i = 0; i < 9; i++) {
                ids.next();
            }
            store.down(true);
            assertThat(catchThrowable(ids::next)).isNotNull();
        }
        assertThat(stopped).filteredOn(c -> c.getName().equals(MicrometerMetricsTrackerFactory.WAIT_OBSERVATION))
                .extracting(c -> c.getLowCardinalityKeyValue("outcome").getValue())
                .contains("success", "failure");
        assertThat(stopped).filteredOn(c -> c.getName().equals(MicrometerMetricsTrackerFactory.RESERVATION_OBSERVATION))
                .anySatisfy(c -> {
                    assertThat(c.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("failure");
                    assertThat(c.getError()).isNotNull();
                    assertThat(c.getLowCardinalityKeyValue("strategy").getValue()).isEqualTo("batch");
                });
    }
}
