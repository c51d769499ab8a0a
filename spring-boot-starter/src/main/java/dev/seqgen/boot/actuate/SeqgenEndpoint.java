package dev.seqgen.boot.actuate;

import dev.seqgen.KeyRange;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceStats;
import dev.seqgen.Setting;
import dev.seqgen.spi.SequenceStore;
import java.time.Duration;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code seqgen} actuator endpoint, read-only: every sequence in use, configured by name or numbered in series,
 * with its strategy and settings, the block this JVM holds, the store row's {@code next_value}, this JVM's counters,
 * and how many of its series are open. {@code /actuator/seqgen/{name}} shows one sequence,
 * {@code /actuator/seqgen/{name}/{prefix}} a page of its series.
 */
@Endpoint(id = "seqgen")
public class SeqgenEndpoint {

    /** The most series one page of {@link #series} lists. */
    static final int SERIES_PAGE = 50;

    private final SequenceRegistry registry;

    private final Set<String> configuredSequences;

    private final MappedSeries mappedSeries;

    /**
     * Creates the endpoint of an application without seqgen's entity mappings.
     *
     * @param registry the registry whose sequences to show
     * @param configuredSequences names of sequences to show even before they are used
     */
    public SeqgenEndpoint(SequenceRegistry registry, Collection<String> configuredSequences) {
        this(registry, configuredSequences, MappedSeries.NONE);
    }

    /**
     * Creates the endpoint.
     *
     * @param registry the registry whose sequences to show
     * @param configuredSequences names of sequences to show even before they are used
     * @param mappedSeries the sequences the entity mappings number in series, and the registries that hold series
     *     beside {@code registry}
     */
    public SeqgenEndpoint(SequenceRegistry registry, Collection<String> configuredSequences,
            MappedSeries mappedSeries) {
        this.registry = registry;
        this.configuredSequences = Set.copyOf(configuredSequences);
        this.mappedSeries = mappedSeries;
    }

    /**
     * Describes every sequence in use, configured, or numbered in series (never its series: see {@link #series}).
     *
     * @return the store and the sequences by name
     */
    @ReadOperation
    public SeqgenDescriptor sequences() {
        Map<String, @Nullable Sequence> known = KnownSequences.known(registry, configuredSequences);
        List<SequenceRegistry> holders = seriesHolders();
        Map<String, SequenceSettings> mapped = mappedSeries.sequences();
        SortedSet<String> numberedInSeries = numberedInSeries(holders, mapped);
        SortedSet<String> names = new TreeSet<>(known.keySet());
        names.addAll(numberedInSeries);
        Map<String, SequenceDescriptor> sequences = new LinkedHashMap<>();
        for (String name : names) {
            sequences.put(name, describe(name, known.get(name), holders, mapped, numberedInSeries.contains(name)));
        }
        return new SeqgenDescriptor(registry.store().name(), sequences);
    }

    /**
     * Describes one sequence.
     *
     * @param name the sequence name
     * @return the sequence, or null (HTTP 404) if it is neither in use, nor configured, nor numbered in series
     */
    @ReadOperation
    public @Nullable SequenceDescriptor sequence(@Selector String name) {
        Map<String, @Nullable Sequence> known = KnownSequences.known(registry, configuredSequences);
        List<SequenceRegistry> holders = seriesHolders();
        Map<String, SequenceSettings> mapped = mappedSeries.sequences();
        boolean inSeries = mapped.containsKey(name)
                || holders.stream().anyMatch(holder -> holder.seriesSequences().contains(name));
        return known.containsKey(name) || inSeries ? describe(name, known.get(name), holders, mapped, inSeries)
                : null;
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
        // A key is in one registry only: a tenant's series keys hold the tenant.
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

    /** The application's registry, then those of tenants' own tables: every registry whose series are listed. */
    private List<SequenceRegistry> seriesHolders() {
        List<SequenceRegistry> holders = new ArrayList<>();
        holders.add(registry);
        holders.addAll(mappedSeries.registries());
        return holders;
    }

    /** The sequences numbered in series: by the entity mappings, and those with series open in any registry. */
    private static SortedSet<String> numberedInSeries(List<SequenceRegistry> holders,
            Map<String, SequenceSettings> mapped) {
        SortedSet<String> names = new TreeSet<>(mapped.keySet());
        holders.forEach(holder -> names.addAll(holder.seriesSequences()));
        return names;
    }

    /**
     * One sequence of the list: its own sequence if open; otherwise its settings from the entity mappings (a
     * sequence numbered in series only), from an open series of it, or the registry's for its name.
     */
    private SequenceDescriptor describe(String name, @Nullable Sequence sequence, List<SequenceRegistry> holders,
            Map<String, SequenceSettings> mapped, boolean inSeries) {
        int openSeries = 0;
        SequenceSettings seriesSettings = null;
        if (inSeries) {
            for (SequenceRegistry holder : holders) {
                SortedMap<String, Sequence> open = holder.openSeries(name);
                openSeries += open.size();
                if (seriesSettings == null && !open.isEmpty()) {
                    seriesSettings = open.get(open.firstKey()).settings();
                }
            }
        }
        SequenceSettings settings = sequence != null ? sequence.settings()
                : mapped.containsKey(name) ? mapped.get(name)
                : seriesSettings != null ? seriesSettings : registry.settingsFor(name);
        return describe(registry, name, sequence, settings, openSeries, inSeries ? name + "/{prefix}" : null);
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
        Map<String, Object> settingsDescriptor = settings(settings);
        String strategy = settings.strategy().externalName();
        if (sequence == null) {
            double capacityUsed = storeNextValue == null ? 0.0
                    : settings.capacityUsedBelow(storeNextValue);
            return new SequenceDescriptor(strategy, kind, false, storeNextValue, storeError, null, 0, settings.blockSize(),
                    0, -1, capacityUsed, null, settingsDescriptor, openSeries, seriesPage);
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
                settingsDescriptor, openSeries, seriesPage);
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
     *     counters. A sequence numbered only in series is not used itself (it has no row of its own): its series
     *     are, each listed with its block and counters on its series page
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
     * @param openSeries how many series of the sequence are open in this JVM, those counted in tenants' own tables
     *     included; 0 for a series itself
     * @param seriesPage for a sequence numbered in series, the path of its series pages below the endpoint's,
     *     {@code {name}/{prefix}} ({@code /actuator/seqgen/invoices/ACME}; {@code *} for every key); null for a
     *     sequence that has no series, and for a series itself
     */
    public record SequenceDescriptor(String strategy, @Nullable String kind, boolean inUse,
            @Nullable Long storeNextValue, @Nullable String storeError, @Nullable BlockDescriptor currentBlock,
            long remaining, long blockSize, long refillPoint, long highestReserved, double capacityUsed,
            @Nullable CountersDescriptor counters, Map<String, Object> settings, int openSeries,
            @Nullable String seriesPage) implements OperationResponseBody {
    }

    /**
     * One page of the series of a sequence open in this JVM.
     *
     * @param sequence the sequence name
     * @param prefix the start of the keys listed; empty for every key
     * @param page the page, from 0
     * @param pageSize the most series a page holds
     * @param total the series open in this JVM whose key starts with the prefix, on every page (those counted in
     *     tenants' own tables included)
     * @param series the page's series, by key, in key order
     */
    public record SeriesPage(String sequence, String prefix, int page, int pageSize, int total,
            Map<String, SequenceDescriptor> series) implements OperationResponseBody {
    }

    /**
     * What the entity mappings know of series that the application's registry cannot tell: the sequences numbered
     * only in series (no row of their own, so never in use themselves), and the registries in which seqgen's
     * Hibernate support counts series in each tenant's own table. The auto-configuration supplies it from every
     * {@code EntityManagerFactory} when Hibernate is present.
     */
    public interface MappedSeries {

        /** No entity mappings: nothing beyond the application's registry. */
        MappedSeries NONE = new MappedSeries() {

            @Override
            public Map<String, SequenceSettings> sequences() {
                return Map.of();
            }

            @Override
            public List<SequenceRegistry> registries() {
                return List.of();
            }
        };

        /**
         * Returns the sequences the entity mappings number only in series, whether or not a series is open.
         *
         * @return their settings, by sequence name
         */
        Map<String, SequenceSettings> sequences();

        /**
         * Returns the registries that hold series beside the application's (those of tenants' own tables), whose
         * series are listed and counted with the application's; read only, never closed.
         *
         * @return the registries held now
         */
        List<SequenceRegistry> registries();
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
