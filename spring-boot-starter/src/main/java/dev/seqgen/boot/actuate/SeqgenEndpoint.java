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
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/** The read-only {@code seqgen} actuator endpoint (docs/operations.md#endpoint). */
@Endpoint(id = "seqgen")
public class SeqgenEndpoint {

    /** The most series one page lists. */
    static final int SERIES_PAGE = 50;

    private final SequenceRegistry registry;
    private final Set<String> configuredSequences;
    private final MappedSeries mappedSeries;

    /** Creates the endpoint of an application without entity mappings. */
    public SeqgenEndpoint(SequenceRegistry registry, Collection<String> configuredSequences) {
        this(registry, configuredSequences, MappedSeries.NONE);
    }

    /** Creates the endpoint showing the registry's sequences, the configured ones, and the mappings' series. */
    public SeqgenEndpoint(SequenceRegistry registry, Collection<String> configuredSequences,
            MappedSeries mappedSeries) {
        this.registry = registry;
        this.configuredSequences = Set.copyOf(configuredSequences);
        this.mappedSeries = mappedSeries;
    }

    /** Describes every sequence in use, configured, or numbered in series (not the series themselves). */
    @ReadOperation
    public SeqgenDescriptor sequences() {
        Map<String, @Nullable Sequence> known = known(registry, configuredSequences);
        List<SequenceRegistry> holders = seriesHolders();
        Map<String, SequenceSettings> mapped = mappedSeries.sequences();
        Set<String> numberedInSeries = new TreeSet<>(mapped.keySet());
        holders.forEach(holder -> numberedInSeries.addAll(holder.seriesSequences()));
        Map<String, SequenceDescriptor> sequences = new TreeMap<>();
        Stream.concat(known.keySet().stream(), numberedInSeries.stream()).distinct().forEach(name -> sequences.put(name,
                describe(name, known.get(name), holders, mapped, numberedInSeries.contains(name))));
        return new SeqgenDescriptor(registry.store().name(), sequences);
    }

    /** Describes one sequence; null (HTTP 404) if it is neither in use, nor configured, nor numbered in series. */
    @ReadOperation
    public @Nullable SequenceDescriptor sequence(@Selector String name) {
        Map<String, @Nullable Sequence> known = known(registry, configuredSequences);
        List<SequenceRegistry> holders = seriesHolders();
        Map<String, SequenceSettings> mapped = mappedSeries.sequences();
        boolean inSeries = mapped.containsKey(name)
                || holders.stream().anyMatch(holder -> holder.seriesSequences().contains(name));
        return known.containsKey(name) || inSeries ? describe(name, known.get(name), holders, mapped, inSeries) : null;
    }

    /** Lists a page (from 0) of the series open in this JVM whose key starts with the prefix ({@code *}: all). */
    @ReadOperation
    public SeriesPage series(@Selector String name, @Selector(match = Selector.Match.ALL_REMAINING) String[] prefix,
            @Nullable Integer page) {
        String start = prefix.length == 1 && prefix[0].equals("*") ? "" : String.join("/", prefix);
        int index = page == null ? 0 : Math.max(0, page);
        // a key is in one registry only: a tenant's series keys hold the tenant
        SortedMap<String, Map.Entry<SequenceRegistry, Sequence>> matching = new TreeMap<>();
        for (SequenceRegistry holder : seriesHolders()) {
            holder.openSeries(name).forEach((key, series) -> {
                if (key.startsWith(start)) {
                    matching.putIfAbsent(key, Map.entry(holder, series));
                }
            });
        }
        Map<String, SequenceDescriptor> described = new LinkedHashMap<>();
        matching.entrySet().stream().skip((long) index * SERIES_PAGE).limit(SERIES_PAGE).forEach(series -> {
            Sequence sequence = series.getValue().getValue();
            described.put(series.getKey(), describe(series.getValue().getKey(), sequence.name(), sequence,
                    sequence.settings(), 0, null));
        });
        return new SeriesPage(name, start, index, SERIES_PAGE, matching.size(), described);
    }

    /** The application's registry, then those of tenants' own tables. */
    private List<SequenceRegistry> seriesHolders() {
        return Stream.concat(Stream.of(registry), mappedSeries.registries().stream()).toList();
    }

    /** Settings: the open sequence's, else the entity mappings', an open series', or the registry's for the name. */
    private SequenceDescriptor describe(String name, @Nullable Sequence sequence, List<SequenceRegistry> holders,
            Map<String, SequenceSettings> mapped, boolean inSeries) {
        List<SortedMap<String, Sequence>> open = inSeries
                ? holders.stream().map(holder -> holder.openSeries(name)).toList() : List.of();
        SequenceSettings settings = sequence != null ? sequence.settings()
                : mapped.containsKey(name) ? mapped.get(name)
                : open.stream().filter(series -> !series.isEmpty()).findFirst()
                        .map(series -> series.get(series.firstKey()).settings())
                        .orElseGet(() -> registry.settingsFor(name));
        return describe(registry, name, sequence, settings, open.stream().mapToInt(Map::size).sum(),
                inSeries ? name + "/{prefix}" : null);
    }

    private SequenceDescriptor describe(SequenceRegistry holder, String name, @Nullable Sequence sequence,
            SequenceSettings settings, int openSeries, @Nullable String seriesPage) {
        Long storeNextValue = null;
        String storeError = null;
        String kind = null;
        try {
            SequenceStore store = holder.storeOf(name, settings);
            kind = store.kind().externalName();
            OptionalLong nextValue = store.nextValue(name);
            storeNextValue = nextValue.isPresent() ? nextValue.getAsLong() : null;
        } catch (RuntimeException e) {
            storeError = e.getMessage();
        }
        // a sequence not in use holds no block and has done nothing
        SequenceStats stats = sequence != null ? sequence.stats() : new SequenceStats(name, settings.strategy(), 0, 0,
                0, 0, 0, 0, -1, -1, 0, settings.blockSize(), 0, 0, -1, 0.0);
        double capacityUsed = storeNextValue == null ? stats.capacityUsed()
                : Math.max(stats.capacityUsed(), settings.capacityUsedBelow(storeNextValue));
        BlockDescriptor block = stats.blockFirst() < 0 ? null
                : new BlockDescriptor(stats.blockFirst(), stats.blockEnd() - 1);
        CountersDescriptor counters = sequence == null ? null : new CountersDescriptor(stats.issued(),
                stats.reservations(), stats.reservationFailures(), stats.retries(), stats.waits(), stats.lateRefills(),
                stats.discarded());
        return new SequenceDescriptor(settings.strategy().externalName(), kind, sequence != null, storeNextValue,
                storeError, block, stats.remaining(), stats.blockSize(), stats.refillPoint(), stats.highestReserved(),
                capacityUsed, counters, settings(settings), openSeries, seriesPage);
    }

    /** Every sequence of the registry, by name, and the store's name (such as {@code postgresql}). */
    public record SeqgenDescriptor(String store, Map<String, SequenceDescriptor> sequences)
            implements OperationResponseBody {
    }

    /** One sequence, as docs/operations.md#endpoint shows it; {@code storeError} says why a row could not be read. */
    public record SequenceDescriptor(String strategy, @Nullable String kind, boolean inUse,
            @Nullable Long storeNextValue, @Nullable String storeError, @Nullable BlockDescriptor currentBlock,
            long remaining, long blockSize, long refillPoint, long highestReserved, double capacityUsed,
            @Nullable CountersDescriptor counters, Map<String, Object> settings, int openSeries,
            @Nullable String seriesPage) implements OperationResponseBody {
    }

    /** One page of a sequence's series open in this JVM, in key order; {@code total} counts every page's. */
    public record SeriesPage(String sequence, String prefix, int page, int pageSize, int total,
            Map<String, SequenceDescriptor> series) implements OperationResponseBody {
    }

    /** What the entity mappings know of series beyond the application's registry. */
    public interface MappedSeries {

        /** No entity mappings: nothing beyond the application's registry. */
        MappedSeries NONE = new MappedSeries() {
        };

        /** The settings of the sequences the entity mappings number only in series, by name; none by default. */
        default Map<String, SequenceSettings> sequences() {
            return Map.of();
        }

        /** The registries holding series beside the application's, read only and never closed; none by default. */
        default List<SequenceRegistry> registries() {
            return List.of();
        }
    }

    /** A block of values, from {@code first} to {@code last} inclusive. */
    public record BlockDescriptor(long first, long last) {
    }

    /** What one sequence has done in this JVM (reservation failures count those that failed after retries). */
    public record CountersDescriptor(long issued, long reservations, long reservationFailures, long retries,
            long waits, long lateRefills, long discarded) {
    }

    /** The sequences to report, by name: those in use, and those configured but not used yet (null). */
    static Map<String, @Nullable Sequence> known(SequenceRegistry registry, Set<String> configured) {
        Map<String, @Nullable Sequence> known = new TreeMap<>();
        configured.forEach(name -> known.put(name, null));
        registry.sequences().forEach(sequence -> known.put(sequence.name(), sequence));
        return known;
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
