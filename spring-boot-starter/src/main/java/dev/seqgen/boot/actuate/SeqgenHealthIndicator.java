package dev.seqgen.boot.actuate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.spi.SequenceStore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The health of seqgen: whether the store answers, and whether a sequence is running out of values.
 *
 * <p>For every sequence in use and every sequence configured by name, the indicator reads the store row's
 * {@code next_value} and reports it with the share of the sequence's range used up: the larger of what all
 * JVMs have taken (the row) and what this JVM has reserved. The status is
 * <ul>
 *   <li>{@code DOWN} when the store fails, or the row of a sequence in use is gone;</li>
 *   <li>{@link #WARNING} when a sequence has used more than the warning threshold of its range — the
 *       application still works, but someone must raise the maximum or plan a new sequence;</li>
 *   <li>{@code UP} otherwise.</li>
 * </ul>
 * {@code WARNING} is a custom status: Spring Boot shows it for this indicator and answers HTTP 200, but leaves
 * it out of the aggregate status until it is added to {@code management.endpoint.health.status.order}
 * (for example {@code down,out-of-service,warning,up,unknown}).
 */
public class SeqgenHealthIndicator extends AbstractHealthIndicator {

    /** A sequence has used more than the warning threshold of its range. */
    public static final Status WARNING = new Status("WARNING",
            "A sequence has used more than the warning threshold of its range");

    private final SequenceRegistry registry;

    private final Set<String> configuredSequences;

    private final double capacityWarningThreshold;

    /**
     * Creates the indicator.
     *
     * @param registry the registry whose sequences to check
     * @param configuredSequences names of sequences to check even before they are used
     * @param capacityWarningThreshold share of a sequence's range above which the status is {@link #WARNING},
     *     greater than 0 and at most 1
     * @throws IllegalArgumentException if the threshold is out of range
     */
    public SeqgenHealthIndicator(SequenceRegistry registry, Collection<String> configuredSequences,
            double capacityWarningThreshold) {
        super("seqgen health check failed");
        if (!(capacityWarningThreshold > 0 && capacityWarningThreshold <= 1)) {
            throw new IllegalArgumentException(
                    "capacityWarningThreshold must be > 0 and <= 1, was " + capacityWarningThreshold);
        }
        this.registry = registry;
        this.configuredSequences = Set.copyOf(configuredSequences);
        this.capacityWarningThreshold = capacityWarningThreshold;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        SequenceStore store = registry.store();
        Map<String, Object> sequences = new LinkedHashMap<>();
        List<String> missingRows = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        KnownSequences.known(registry, configuredSequences).forEach((name, sequence) -> {
            SequenceSettings settings = sequence != null ? sequence.settings() : registry.settingsFor(name);
            OptionalLong nextValue = store.nextValue(name);
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("strategy", KnownSequences.strategy(settings.strategy()));
            detail.put("nextValue", nextValue.isPresent() ? nextValue.getAsLong() : null);
            double used = sequence != null ? sequence.stats().capacityUsed() : 0.0;
            if (nextValue.isPresent()) {
                used = Math.max(used, KnownSequences.storeCapacityUsed(settings, nextValue.getAsLong()));
            } else if (sequence != null) {
                missingRows.add(name);
            }
            detail.put("capacityUsed", used);
            sequences.put(name, detail);
            if (used > capacityWarningThreshold) {
                warnings.add(String.format(Locale.ROOT, "sequence '%s' has used %.1f%% of its range (warning above"
                        + " %.1f%%)", name, used * 100, capacityWarningThreshold * 100));
            }
        });
        builder.withDetail("store", store.name()).withDetail("sequences", sequences);
        if (!missingRows.isEmpty()) {
            builder.down().withDetail("missingRows", missingRows);
        } else if (!warnings.isEmpty()) {
            builder.status(WARNING).withDetail("warnings", warnings);
        } else {
            builder.up();
        }
    }
}
