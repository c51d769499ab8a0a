package dev.seqgen.boot.actuate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Ticker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * The health of seqgen (docs/operations.md#health): {@code DOWN} when the store fails or a used sequence's row is gone,
 * {@link #WARNING} (HTTP 200) when a sequence or series is above the threshold, {@code UP} otherwise. Rows read serve
 * the checks of the next {@link #STORE_READ_TIME_TO_LIVE}; a check never waits for another check's read.
 */
public class SeqgenHealthIndicator extends AbstractHealthIndicator {

    /** The name of the threshold in error messages; the starter prefixes it with {@code seqgen.health.}. */
    public static final String THRESHOLD_SETTING = "capacity-warning-threshold";

    /** How long the rows read from the store answer health checks. */
    public static final Duration STORE_READ_TIME_TO_LIVE = Duration.ofSeconds(2);

    /** How many series near exhaustion the warnings name per sequence, most used first; the others are counted. */
    public static final int NAMED_SERIES = 10;

    /** A sequence has used more than the warning threshold of its range. */
    public static final Status WARNING = new Status("WARNING",
            "A sequence has used more than the warning threshold of its range");

    private final SequenceRegistry registry;
    private final Set<String> configuredSequences;
    private final double capacityWarningThreshold;
    private final Ticker ticker;
    /*
     * One check at a time reads the store (probes must not pile up behind reservations on the dedicated connection):
     * the tryLock holder publishes an immutable StoreRows through the volatile field; others use the last rows, and
     * wait only when none cover their sequences.
     */
    private final ReentrantLock readLock = new ReentrantLock();
    private volatile @Nullable StoreRows lastRead;

    /**
     * Creates the indicator of the registry's sequences and the configured ones, {@link #WARNING} above the share
     * {@code capacityWarningThreshold} of a range, in (0, 1], else throws a {@link SequenceConfigurationException}.
     */
    public SeqgenHealthIndicator(SequenceRegistry registry, Collection<String> configuredSequences,
            double capacityWarningThreshold) {
        this(registry, configuredSequences, capacityWarningThreshold, Ticker.systemTicker());
    }

    /** As the other constructor, with the clock of the rows' time to live. */
    public SeqgenHealthIndicator(SequenceRegistry registry, Collection<String> configuredSequences,
            double capacityWarningThreshold, Ticker ticker) {
        super("seqgen health check failed");
        this.ticker = ticker;
        if (!(capacityWarningThreshold > 0 && capacityWarningThreshold <= 1)) {
            throw new SequenceConfigurationException(THRESHOLD_SETTING, capacityWarningThreshold,
                    "a number greater than 0 and at most 1");
        }
        this.registry = registry;
        this.configuredSequences = Set.copyOf(configuredSequences);
        this.capacityWarningThreshold = capacityWarningThreshold;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        Map<String, @Nullable Sequence> known = SeqgenEndpoint.known(registry, configuredSequences);
        StoreRows rows = storeRows(known.keySet());
        Map<String, Object> sequences = new LinkedHashMap<>();
        List<String> missingRows = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        known.forEach((name, sequence) -> {
            SequenceSettings settings = sequence != null ? sequence.settings() : registry.settingsFor(name);
            OptionalLong nextValue = rows.nextValues().getOrDefault(name, OptionalLong.empty());
            Map<String, @Nullable Object> detail = new LinkedHashMap<>();
            detail.put("strategy", settings.strategy().externalName());
            detail.put("kind", registry.storeOf(name).kind().externalName());
            detail.put("nextValue", nextValue.isPresent() ? nextValue.getAsLong() : null);
            double used = sequence != null ? sequence.stats().capacityUsed() : 0.0;
            if (nextValue.isPresent()) {
                used = Math.max(used, settings.capacityUsedBelow(nextValue.getAsLong()));
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
        Map<String, Object> series = seriesHealth(warnings);
        builder.withDetail("store", registry.store().name()).withDetail("sequences", sequences);
        if (!series.isEmpty()) {
            builder.withDetail("series", series);
        }
        if (!missingRows.isEmpty()) {
            builder.down().withDetail("missingRows", missingRows);
        } else if (!warnings.isEmpty()) {
            builder.status(WARNING).withDetail("warnings", warnings);
        } else {
            builder.up();
        }
    }

    /** The series open in this JVM, by sequence: how many, and how many are above the threshold (no row read). */
    private Map<String, Object> seriesHealth(List<String> warnings) {
        Map<String, Object> bySequence = new LinkedHashMap<>();
        for (String name : registry.seriesSequences()) {
            Map<String, Sequence> open = registry.openSeries(name);
            List<Map.Entry<String, Double>> near = open.entrySet().stream()
                    .map(series -> Map.entry(series.getKey(), series.getValue().stats().capacityUsed()))
                    .filter(series -> series.getValue() > capacityWarningThreshold)
                    .sorted(Map.Entry.<String, Double>comparingByValue().reversed()).toList();
            Map<String, Object> detail = new LinkedHashMap<>();
            detail.put("open", open.size());
            detail.put("nearExhaustion", near.size());
            bySequence.put(name, detail);
            for (Map.Entry<String, Double> series : near.subList(0, Math.min(NAMED_SERIES, near.size()))) {
                warnings.add(String.format(Locale.ROOT, "series '%s' of sequence '%s' has used %.1f%% of its range"
                        + " (warning above %.1f%%)", series.getKey(), name, series.getValue() * 100,
                        capacityWarningThreshold * 100));
            }
            if (near.size() > NAMED_SERIES) {
                warnings.add(String.format(Locale.ROOT, "and %d more series of sequence '%s' above %.1f%% of their"
                        + " range", near.size() - NAMED_SERIES, name, capacityWarningThreshold * 100));
            }
        }
        return bySequence;
    }

    /** The rows of these sequences: fresh enough, being read by another check, or read now. */
    private StoreRows storeRows(Set<String> names) {
        StoreRows last = lastRead;
        if (last != null && last.covers(names) && ticker.read() - last.readAt() < STORE_READ_TIME_TO_LIVE.toNanos()) {
            return last;
        }
        if (!readLock.tryLock()) {
            if (last != null && last.covers(names)) {
                return last;
            }
            readLock.lock();
        }
        try {
            StoreRows current = lastRead;
            if (current != last && current != null && current.covers(names)) {
                return current;
            }
            long readAt = ticker.read();
            StoreRows read = new StoreRows(names.stream().collect(Collectors.toUnmodifiableMap(name -> name,
                    name -> registry.storeOf(name).nextValue(name))), readAt);
            lastRead = read;
            return read;
        } finally {
            readLock.unlock();
        }
    }

    private record StoreRows(Map<String, OptionalLong> nextValues, long readAt) {

        boolean covers(Set<String> names) {
            return nextValues.keySet().containsAll(names);
        }
    }
}
