package dev.seqgen.metrics.micrometer;

import static dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory.PREFIX;

import dev.seqgen.metrics.SequenceMetricsTracker.Operation;
import dev.seqgen.metrics.SequenceMetricsTracker.Span;
import io.micrometer.common.KeyValues;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One sequence's {@link Observation}s, keyed by its tags and, when they end, {@code outcome=success|failure}. Loaded
 * only when an {@link ObservationRegistry} is given, so core needs the Observation API only then.
 */
final class SequenceObservations {

    private final ObservationRegistry registry;
    private final KeyValues keyValues;

    SequenceObservations(ObservationRegistry registry, Tags tags) {
        this.registry = registry;
        this.keyValues = KeyValues.of(tags, Tag::getKey, Tag::getValue);
    }

    @Nullable Object current() {
        return registry.getCurrentObservation();
    }

    Span start(Operation operation, @Nullable Object parentContext) {
        // The factory's *_OBSERVATION names: seqgen.reservation, seqgen.refill, seqgen.wait.
        String kind = operation.name().toLowerCase(Locale.ROOT);
        Observation observation = Observation.createNotStarted(PREFIX + "." + kind, registry)
                .contextualName("seqgen " + kind)
                .lowCardinalityKeyValues(keyValues);
        if (parentContext instanceof Observation parent) {
            observation.parentObservation(parent);
        }
        observation.start();
        Observation.Scope scope = observation.openScope();
        return failure -> {
            scope.close();
            observation.lowCardinalityKeyValue("outcome", failure == null ? "success" : "failure");
            if (failure != null) {
                observation.error(failure);
            }
            observation.stop();
        };
    }
}
