package dev.seqgen.boot.actuate;

import dev.seqgen.KeyRange;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceStats;
import dev.seqgen.Setting;
import dev.seqgen.spi.SequenceStore;
import java.time.Duration;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code seqgen} actuator endpoint, read-only: every sequence in use or configured by name, with its
 * strategy and settings, the block this JVM holds, the store row's {@code next_value}, and this JVM's
 * counters. {@code /actuator/seqgen/{name}} shows one sequence.
 */
@Endpoint(id = "seqgen")
public class SeqgenEndpoint {

    /** The most series one page of {@link #series} lists. */
    static final int SERIES_PAGE = 50;

    private final SequenceRegistry registry;

    private final Set<String> configuredSequences;

    /**
     * Creates the endpoint.
     *
     * @param registry the registry whose sequences to show
     * @param configuredSequences names of sequences to show even before they are used
     */
    public SeqgenEndpoint(SequenceRegistry registry, Collection<String> configuredSequences) {
        this.registry = registry;
        this.configuredSequences = Set.copyOf(configuredSequences);
    }

    /**
     * Describes every sequence in use or configured.
     *
     * @return the store and the sequences by name
     */
    @ReadOperation
    public SeqgenDescriptor sequences() {
        Map<String, SequenceDescriptor> sequences = new LinkedHashMap<>();
        KnownSequences.known(registry, configuredSequences)
                .forEach((name, sequence) -> sequences.put(name, describe(name, sequence)));
        return new SeqgenDescriptor(registry.store().name(), sequences);
    }

    /**
     * Describes one sequence.
     *
     * @param name the sequence name
     * @return the sequence, or null (HTTP 404) if it is neither in use nor configured
     */
    @ReadOperation
    public @Nullable SequenceDescriptor sequence(@Selector String name) {
        Map<String, @Nullable Sequence> known = KnownSequences.known(registry, configuredSequences);
        return known.containsKey(name) ? describe(name, known.get(name)) : null;
    }

    /**
     * Lists the series of a sequence open in this JVM whose key starts with a prefix, a page at a time, never all
     * at once: {@code /actuator/seqgen/invoice_numbers/acme?page=0}, {@code /actuator/seqgen/invoice_numbers/acme/2026},
     * or {@code /actuator/seqgen/invoice_numbers/*} for every key.
     *
     * @param name the sequence name
     * @param prefix the key's start, its parts as path segments; {@code *} for every key
     * @param page the page, from 0; 0 when not given
     * @return the page of series, by key
     */
    @ReadOperation
    public SeriesPage series(@Selector String name, @Selector(match = Selector.Match.ALL_REMAINING) String[] prefix,
            @Nullable Integer page) {
        String start = prefix.length == 1 && prefix[0].equals("*") ? "" : String.join("/", prefix);
        int index = page == null ? 0 : Math.max(0, page);
        List<Map.Entry<String, Sequence>> matching = registry.openSeries(name).entrySet().stream()
                .filter(series -> series.getKey().startsWith(start)).toList();
        Map<String, SequenceDescriptor> described = new LinkedHashMap<>();
        matching.stream().skip((long) index * SERIES_PAGE).limit(SERIES_PAGE).forEach(series -> described.put(
                series.getKey(), describe(series.getValue().name(), series.getValue())));
        return new SeriesPage(name, start, index, SERIES_PAGE, matching.size(), described);
    }

    private SequenceDescriptor describe(String name, @Nullable Sequence sequence) {
        SequenceSettings settings = sequence != null ? sequence.settings() : registry.settingsFor(name);
        Long storeNextValue = null;
        String storeError = null;
        String kind = null;
        try {
            SequenceStore store = registry.storeOf(name);
            kind = store.kind().externalName();
            OptionalLong nextValue = store.nextValue(name);
            storeNextValue = nextValue.isPresent() ? nextValue.getAsLong() : null;
        } catch (RuntimeException e) {
            storeError = e.getMessage();
        }
        Map<String, Object> settingsDescriptor = settings(settings);
        String strategy = settings.strategy().externalName();
        if (sequence == null) {
            double capacityUsed = storeNextValue == null ? 0.0
                    : settings.capacityUsedBelow(storeNextValue);
            return new SequenceDescriptor(strategy, kind, false, storeNextValue, storeError, null, 0, settings.blockSize(),
                    0, -1, capacityUsed, null, settingsDescriptor);
        }
        SequenceStats stats = sequence.stats();
        BlockDescriptor block = stats.blockFirst() < 0 ? null
                : new BlockDescriptor(stats.blockFirst(), stats.blockEnd() - 1);
        double capacityUsed = stats.capacityUsed();
        if (storeNextValue != null) {
            capacityUsed = Math.max(capacityUsed, settings.capacityUsedBelow(storeNextValue));
        }
        return new SequenceDescriptor(strategy, kind, true, storeNextValue, storeError, block, stats.remaining(),
                stats.blockSize(), stats.refillPoint(), stats.highestReserved(), capacityUsed,
                new CountersDescriptor(stats.issued(), stats.reservations(), stats.reservationFailures(),
                        stats.retries(), stats.waits(), stats.lateRefills(), stats.discarded()),
                settingsDescriptor);
    }

    /**
     * Every sequence of the registry.
     *
     * @param store the store's name, such as {@code postgresql}
     * @param sequences the sequences by name
     */
    public record SeqgenDescriptor(String store, Map<String, SequenceDescriptor> sequences)
            implements OperationResponseBody {
    }

    /**
     * One sequence.
     *
     * @param strategy the strategy, as configured: {@code sync}, {@code async}, {@code batch} or
     *     {@code async-batch}
     * @param kind where its values are counted, {@code table} or {@code native-sequence} (the kind of the store that
     *     serves it), or null if the registry has no store of the kind its settings name
     * @param inUse whether this JVM has used the sequence yet; only a sequence in use holds a block and has
     *     counters
     * @param storeNextValue the store row's {@code next_value}: the next value no JVM has taken; null if the
     *     row does not exist yet or could not be read
     * @param storeError why the row could not be read, or null
     * @param currentBlock the block this JVM is handing out values from, or null
     * @param remaining values this JVM holds, including a prefetched block
     * @param blockSize the size of the next block this JVM reserves
     * @param refillPoint values left in the block in hand when async-batch starts its background refill (it moves
     *     when the sequence is adaptive); 0 for the other strategies and before first use
     * @param highestReserved the highest value this JVM has reserved, or -1
     * @param capacityUsed the share of the range from initial to maximum value used up, from 0 to 1: the
     *     larger of what all JVMs have taken (the store row) and what this JVM has reserved
     * @param counters this JVM's counters, or null if the sequence is not in use
     * @param settings the sequence's settings by their keys ({@code block-size}, {@code adaptive.enabled}, ...; those
     *     of {@link Setting}), valued as in a properties file: strategies as {@code async-batch}, durations in
     *     ISO-8601, a skip range as {@code min..max} or {@code none}
     */
    public record SequenceDescriptor(String strategy, @Nullable String kind, boolean inUse,
            @Nullable Long storeNextValue, @Nullable String storeError, @Nullable BlockDescriptor currentBlock,
            long remaining, long blockSize, long refillPoint, long highestReserved, double capacityUsed,
            @Nullable CountersDescriptor counters, Map<String, Object> settings) implements OperationResponseBody {
    }

    /**
     * One page of the series of a sequence open in this JVM.
     *
     * @param sequence the sequence name
     * @param prefix the start of the keys listed; empty for every key
     * @param page the page, from 0
     * @param pageSize the most series a page holds
     * @param total the series open in this JVM whose key starts with the prefix, on every page
     * @param series the page's series, by key, in key order
     */
    public record SeriesPage(String sequence, String prefix, int page, int pageSize, int total,
            Map<String, SequenceDescriptor> series) implements OperationResponseBody {
    }

    /**
     * A block of values.
     *
     * @param first the first value of the block
     * @param last the last value of the block
     */
    public record BlockDescriptor(long first, long last) {
    }

    /**
     * What one sequence has done in this JVM.
     *
     * @param issued values handed out
     * @param reservations store reservations that succeeded
     * @param reservationFailures store reservations that failed after their retries
     * @param retries retries of transient store errors
     * @param waits calls that had to wait for values
     * @param lateRefills async-batch background refills that arrived after the block in hand ran out
     * @param discarded reserved values that will never be handed out
     */
    public record CountersDescriptor(long issued, long reservations, long reservationFailures, long retries,
            long waits, long lateRefills, long discarded) {
    }

    /** Every {@link Setting} of the sequence, in declaration order, valued as a properties file would set it. */
    static Map<String, Object> settings(SequenceSettings settings) {
        Map<String, Object> described = new LinkedHashMap<>();
        for (Setting setting : Setting.values()) {
            Object value = setting.valueIn(settings);
            described.put(setting.key(), value instanceof Enum<?> constant
                    ? constant.name().toLowerCase(Locale.ROOT).replace('_', '-')
                    : value instanceof Duration || value instanceof KeyRange ? value.toString() : value);
        }
        return described;
    }
}
