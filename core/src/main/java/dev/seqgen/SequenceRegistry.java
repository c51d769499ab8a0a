package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.SequenceStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Gives out one shared {@link Sequence} per name, served by the registry's store of its {@link SequenceSettings#kind()
 * kind}, and closes them all. Every user of a name in a JVM should share one registry, so that the name has one block
 * in hand and one set of counters. Thread-safe.
 */
public final class SequenceRegistry implements AutoCloseable {

    /** The default of {@link Builder#seriesIdleTimeout(Duration)}. */
    public static final Duration DEFAULT_SERIES_IDLE_TIMEOUT = Duration.ofMinutes(10);

    /** The name of the series idle timeout in messages. */
    public static final String SERIES_IDLE_TIMEOUT_SETTING = "series.idle-timeout";

    /** How long {@link #close()} waits for background refills after the sequences closed. */
    private static final long EXECUTOR_SHUTDOWN_SECONDS = 10;
    private static final System.Logger LOG = System.getLogger(SequenceRegistry.class.getName());
    /** The sequence table's name column. */
    private static final int MAX_ROW_NAME = 64;
    /** Between a sequence's name and a series key in the series' row name; never in a sequence name. */
    private static final char SERIES_SEPARATOR = '#';
    private static final String SERIES_KEY_PUNCTUATION = " _.-:@+";
    /** The one daemon thread of the JVM that releases idle series, for every registry; started by the first sweep. */
    private static final ScheduledThreadPoolExecutor IDLE_SWEEPER =
            new ScheduledThreadPoolExecutor(1, daemonThreads("seqgen-series-idle", null));

    static {
        // A cancelled sweep leaves the queue at once, and its registry with it.
        IDLE_SWEEPER.setRemoveOnCancelPolicy(true);
    }

    private final SequenceStore store;
    /** The store of each kind, the primary {@link #store} included. */
    private final Map<CounterKind, SequenceStore> stores;
    private final SequenceSettings defaults;
    private final Map<String, SequenceSettings> perSequence;
    private final Map<String, Map<Setting, String>> sources;
    private final Executor executor;
    private final @Nullable ExecutorService ownedExecutor;
    private final Ticker ticker;
    private final SequenceMetricsTrackerFactory metrics;
    private final ConcurrentHashMap<String, Sequence> sequences = new ConcurrentHashMap<>();
    /** By sequence name. */
    private final ConcurrentHashMap<String, SeriesGroup> seriesGroups = new ConcurrentHashMap<>();
    private final Duration seriesIdleTimeout;
    /** Held by one idle sweep around the locks a release takes (series, group, map bin); taken holding no lock. */
    private final Object sweep = new Object();
    /** Guards {@link #sweeps}; taken alone, never inside a map bin lock or {@link #sweep}. */
    private final Object sweeperStart = new Object();
    /** The periodic {@link #releaseIdleSeries()} while a series is open; null otherwise and after close. */
    private @Nullable ScheduledFuture<?> sweeps;
    /** The rows made sure of. Guarded by itself; entered inside a bin lock of {@link #sequences} or alone. */
    private final Set<String> rows = new HashSet<>();
    /** By {@link #declare}; the first declaration wins. */
    private final ConcurrentHashMap<String, SequenceSettings> declared = new ConcurrentHashMap<>();
    /** Creations read-lock it until their sequence is in the map; close() sets closed, then write-locks it. */
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private volatile boolean closed;

    private SequenceRegistry(Builder builder) {
        this.store = builder.store;
        this.stores = Map.copyOf(builder.stores);
        this.defaults = builder.defaults;
        this.perSequence = Map.copyOf(builder.perSequence);
        this.sources = Map.copyOf(builder.sources);
        this.ownedExecutor = builder.executor == null
                ? Executors.newCachedThreadPool(daemonThreads("seqgen-refill-", new AtomicInteger())) : null;
        this.executor = builder.executor == null ? ownedExecutor : builder.executor;
        this.ticker = builder.ticker;
        this.metrics = builder.metrics;
        this.seriesIdleTimeout = builder.seriesIdleTimeout;
        LOG.log(System.Logger.Level.INFO, () -> "seqgen registry on the " + store.name() + " store " + store
                + stores().stream().skip(1).map(other -> " and " + other).collect(Collectors.joining())
                + "; defaults: " + describeDefaults(defaults)
                + (perSequence.isEmpty() ? "" : "; per sequence: " + describePerSequence()));
    }

    private static String describeDefaults(SequenceSettings defaults) {
        boolean skips = !defaults.skipRange().isEmpty();
        String skipsNote = defaults.keyOrder() == KeyOrder.BIT_REVERSED ? "" : " (bit-reversed sequences only)";
        return Arrays.stream(Setting.values()).filter(setting -> setting != Setting.SKIP_RANGE || skips)
                .map(setting -> setting.key() + "=" + setting.valueIn(defaults)
                        + (setting == Setting.SKIP_RANGE ? skipsNote : ""))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /** For the start-up line: what was set and where, or else what differs from the defaults. */
    private String describePerSequence() {
        return perSequence.keySet().stream().sorted().map(name -> {
            SequenceSettings settings = perSequence.get(name);
            List<String> values = new ArrayList<>();
            Map<Setting, String> set = sources.get(name);
            if (set != null) {
                set.forEach((setting, source) -> values.add(source + "=" + setting.valueIn(settings)));
            } else {
                Arrays.stream(Setting.values()).filter(setting -> !settings.derived(setting)
                        && !setting.valueIn(settings).equals(setting.valueIn(defaults)))
                        .forEach(setting -> values.add(setting.key() + "=" + setting.valueIn(settings)));
                values.add(values.isEmpty() ? "the defaults" : "where its settings differ from the defaults");
            }
            return name + " (" + (values.isEmpty() ? "nothing set" : String.join(", ", values)) + ")";
        }).collect(Collectors.joining(", "));
    }

    /** {@return a builder for a registry over {@code store}, its primary store} */
    public static Builder builder(SequenceStore store) {
        return new Builder(store);
    }

    /** {@link #sequence(String, SequenceSettings)} with the {@link #settingsFor} the name. */
    public Sequence sequence(String name) {
        return sequence(name, settingsFor(name));
    }

    /**
     * Returns the sequence with this name, creating it with {@code settings} on first use. Throws a
     * {@link SequenceConfigurationException} if the name is not valid or the sequence exists with other settings, a
     * {@link SequenceUnavailableException} if the row could not be created, an {@link IllegalStateException} if closed.
     */
    public Sequence sequence(String name, SequenceSettings settings) {
        Objects.requireNonNull(settings, "settings");
        Sequence sequence = sequences.get(name);
        if (sequence == null) {
            Identifiers.requireSequenceName(name);
            sequence = open(name,
                    key -> Sequences.create(key, settings, newRow(key, settings), ticker, executor, metrics));
        }
        requireSameSettings(name, sequence.settings(), settings);
        return sequence;
    }

    /** Puts in the map under the read lock of {@link #lifecycle}; one made while close() began fails, as after it. */
    private Sequence open(String row, Function<String, Sequence> create) {
        Sequence sequence;
        lifecycle.readLock().lock();
        try {
            sequence = sequences.computeIfAbsent(row, create);
        } finally {
            lifecycle.readLock().unlock();
        }
        if (closed) {
            throw closedError(row);
        }
        return sequence;
    }

    /** {@link #series(String, String, SequenceSettings)} with the sequence's {@link #settingsFor}. */
    public Sequence series(String name, String key) {
        return series(name, key, settingsFor(name));
    }

    /**
     * Returns one series of a sequence: a counter of its own for one key, its row {@link #seriesRow name#key} created
     * on first use. Throws as {@link #sequence(String, SequenceSettings)}, and if the sequence's kind is not table.
     */
    public Sequence series(String name, String key, SequenceSettings settings) {
        String row = seriesRow(name, key);
        for (;;) {
            Sequence open = sequences.get(row);
            if (open == null) {
                requireSeriesStore(name, settings);
                open = open(row, ignored -> openNewSeries(name, row, settings));
                // After the insertion: a sweep stopping for want of series sees it, or this start follows.
                startSweeper();
            }
            if (!(open instanceof SeriesSequence handle) || !handle.released()) {
                requireSameSettings(row, open.settings(), settings);
                return open;
            }
            // Released as idle: its release holds the handle's monitor until it is out of the map; reopen.
            synchronized (handle) {
                sequences.remove(row, handle);
            }
        }
    }

    /** {@return the series' row name} Makes sure the row exists, as {@link #createSequence}; the kind must be table. */
    public String createSeries(String name, String key, SequenceSettings settings) {
        String row = seriesRow(name, key);
        createRowOnce(row, Objects.requireNonNull(settings, "settings"), requireSeriesStore(name, settings));
        return row;
    }

    /**
     * {@return the name of the row that counts one series, {@code name#key}, at most 64 characters} A key is 1 or more
     * parts joined by {@code /}, each of letters, digits, space and {@code _ . - : @ +}.
     */
    public static String seriesRow(String name, String key) {
        Identifiers.requireSequenceName(name);
        for (String part : Objects.requireNonNull(key, "key").split("/", -1)) {
            requireSeriesPart("series key of sequence '" + name + "'", key, part);
        }
        String row = name + SERIES_SEPARATOR + key;
        if (row.length() > MAX_ROW_NAME) {
            throw new SequenceConfigurationException("series key of sequence '" + name + "'", "'" + key + "'",
                    "at most " + (MAX_ROW_NAME - name.length() - 1) + " characters: the sequence name, '#' and the"
                            + " key make the name of the series' row, at most " + MAX_ROW_NAME + " characters");
        }
        return row;
    }

    /** {@return the series key of 1 or more valid parts, in order: {@code ["acme", "2026"]} gives {@code acme/2026}} */
    public static String seriesKey(List<String> parts) {
        if (parts.isEmpty()) {
            throw new SequenceConfigurationException("series key", "[]", "at least one part");
        }
        for (String part : parts) {
            requireSeriesPart("series key", String.join("/", parts), part);
        }
        return String.join("/", parts);
    }

    /** {@return the series if open now (not released), or null; no I/O, and an invalid key is not found} */
    public @Nullable Sequence seriesIfOpen(String name, String key) {
        return sequences.get(name + SERIES_SEPARATOR + key) instanceof SeriesSequence handle && !handle.released()
                ? handle : null;
    }

    /** {@return the open series of a sequence, by key, in key order} */
    public SortedMap<String, Sequence> openSeries(String name) {
        return seriesInMap(name).stream().filter(series -> !series.released())
                .collect(Collectors.toMap(SeriesSequence::key, series -> series, (a, b) -> a, TreeMap::new));
    }

    /** Those being released included; for statistics. */
    private List<SeriesSequence> seriesInMap(String name) {
        String prefix = name + SERIES_SEPARATOR;
        return sequences.values().stream().filter(sequence -> sequence instanceof SeriesSequence
                && sequence.name().startsWith(prefix)).map(SeriesSequence.class::cast).toList();
    }

    /** The stats of the series open under this row; null if none is. */
    @Nullable SequenceStats openSeriesStats(String row) {
        Sequence sequence = sequences.get(row) instanceof SeriesSequence series ? series.sequence() : null;
        return sequence == null ? null : sequence.stats();
    }

    /** {@return how long a series may go unused before it is released; zero: never} */
    public Duration seriesIdleTimeout() {
        return seriesIdleTimeout;
    }

    /**
     * {@return how many series were released} Closes and drops the series unused for the idle timeout; their next use
     * reopens them. Runs on a shared daemon thread while a series is open. See docs/design.md#idle-series-release.
     */
    public int releaseIdleSeries() {
        if (seriesIdleTimeout.isZero()) {
            return 0;
        }
        Map<String, List<CloseReport>> released = new TreeMap<>();
        synchronized (sweep) {
            long now = ticker.read();
            long idle = seriesIdleTimeout.toNanos();
            for (Sequence sequence : sequences.values()) {
                if (closed) {
                    break;
                }
                if (sequence instanceof SeriesSequence series && (series.takeUsed() || series.inUse())) {
                    series.idleSince = now;
                } else if (sequence instanceof SeriesSequence series && now - series.idleSince >= idle) {
                    Optional.ofNullable(release(series)).ifPresent(report -> released
                            .computeIfAbsent(series.sequenceName(), ignored -> new ArrayList<>()).add(report));
                }
            }
        }
        stopSweeper();
        released.forEach((name, reports) -> {
            CloseReport summary = CloseReport.ofSeries(name, reports);
            boolean lost = summary.lost() > 0 || summary.failed();
            LOG.log(lost ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, "seqgen: released series not used"
                    + " for " + seriesIdleTimeout + ": " + summary.message(), lost ? summary.failure() : null);
        });
        return released.values().stream().mapToInt(List::size).sum();
    }

    /** Releases the series if no call is inside it; null if it was not released. */
    private @Nullable CloseReport release(SeriesSequence series) {
        synchronized (series) {
            Sequence open = series.release();
            if (open == null) {
                return null;
            }
            try {
                return Sequences.closeAndReport(open);
            } finally {
                // The group exists: openNewSeries made it before the series.
                SeriesGroup group = seriesGroups.get(series.sequenceName());
                synchronized (group) {
                    group.retire(open.stats());
                    series.clear();
                    sequences.remove(series.name(), series);
                }
                synchronized (rows) {
                    rows.remove(series.name());
                }
            }
        }
    }

    /**
     * Stops the sweeps once closed or no series is open, so that nothing holds an unused registry. Under
     * {@link #sweeperStart}, as the start, which follows a series' insertion: this sees it, or the start follows.
     */
    private void stopSweeper() {
        synchronized (sweeperStart) {
            if (sweeps != null && (closed || sequences.values().stream().noneMatch(SeriesSequence.class::isInstance))) {
                sweeps.cancel(false);
                sweeps = null;
            }
        }
    }

    /** {@return the clock the registry reads, for registries built beside it} */
    public Ticker ticker() {
        return ticker;
    }

    /** {@return the factory of metrics trackers; the no-op one when none was set} */
    public SequenceMetricsTrackerFactory metrics() {
        return metrics;
    }

    private void startSweeper() {
        synchronized (sweeperStart) {
            if (sweeps != null || closed || seriesIdleTimeout.isZero()) {
                return;
            }
            long period = Math.max(10, Math.min(seriesIdleTimeout.toMillis() / 2, TimeUnit.MINUTES.toMillis(1)));
            sweeps = IDLE_SWEEPER.scheduleWithFixedDelay(() -> {
                try {
                    releaseIdleSeries();
                } catch (RuntimeException e) {
                    // The next sweep tries again; store failures are in the series' reports.
                    LOG.log(System.Logger.Level.WARNING, "seqgen: the release of idle series failed", e);
                }
            }, period, period, TimeUnit.MILLISECONDS);
        }
    }

    private static ThreadFactory daemonThreads(String name, @Nullable AtomicInteger count) {
        return task -> {
            Thread thread = new Thread(task, count == null ? name : name + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    private static void requireSeriesPart(String setting, String key, String part) {
        if (part.isEmpty() || !part.chars().allMatch(c -> Character.isLetterOrDigit(c)
                || SERIES_KEY_PUNCTUATION.indexOf(c) >= 0)) {
            throw new SequenceConfigurationException(setting, "'" + key + "'",
                    "parts joined by '/', each of 1 or more letters, digits, spaces and " + SERIES_KEY_PUNCTUATION
                            .replace(" ", "") + (part.isEmpty() ? " (a part is empty)" : " (part '" + part + "')"));
        }
    }

    private SequenceStore requireSeriesStore(String name, SequenceSettings settings) {
        SequenceStore served = storeOf(name, settings);
        if (served.kind() != CounterKind.TABLE) {
            throw new SequenceConfigurationException("sequences." + name + ".kind", served.kind().externalName(),
                    "table for a sequence numbered in series (each series is a row of seqgen's table)");
        }
        return served;
    }

    private Sequence openNewSeries(String name, String row, SequenceSettings settings) {
        SequenceStore served = newRow(row, settings);
        SeriesGroup group = seriesGroups.computeIfAbsent(name, ignored -> seriesGroup(name, settings, served));
        // Metrics are per sequence, not per series: a tag per tenant or year would be unbounded.
        Sequence sequence = Sequences.create(row, settings, served, ticker, executor,
                (series, store) -> group.seriesTracker());
        Sequences.counter(sequence).quietFirstBlock();
        return new SeriesSequence(this, row, settings, sequence, ticker.read());
    }

    /** Registers the group's meters, once, when the sequence's first series opens. */
    private SeriesGroup seriesGroup(String name, SequenceSettings settings, SequenceStore served) {
        SeriesGroup group = new SeriesGroup(name, settings, () -> seriesInMap(name));
        try {
            group.tracker(GuardedMetricsTracker.guard(metrics.create(group.view(), served)));
            metrics.series(name, () -> openSeries(name).size());
        } catch (RuntimeException e) {
            // A metrics failure never fails a value.
            LOG.log(System.Logger.Level.WARNING, "seqgen: the metrics of the series of sequence '" + name
                    + "' could not be registered: " + e);
        }
        return group;
    }

    /** Checks, without I/O, that the sequence, if open, has {@code settings}, as {@link #requireSameSettings}. */
    public void requireSettings(String name, SequenceSettings settings) {
        Sequence existing = sequences.get(name);
        if (existing != null) {
            requireSameSettings(name, existing.settings(), settings);
        }
    }

    /** Throws a {@link SequenceConfigurationException} naming {@code sequences.<name>} unless both are equal. */
    public static void requireSameSettings(String name, SequenceSettings first, SequenceSettings asked) {
        if (!first.equals(asked)) {
            throw new SequenceConfigurationException("sequences." + name, asked,
                    "the settings the sequence was first created with in this registry: " + first);
        }
    }

    /**
     * Makes sure the row of a sequence exists without opening it, retrying transient store errors within the acquire
     * timeout; a {@link SequenceConfigurationException} if the name is not valid or the store cannot serve the
     * settings, a {@link SequenceUnavailableException} if the row could not be created.
     */
    public void createSequence(String name, SequenceSettings settings) {
        Identifiers.requireSequenceName(name);
        createRowOnce(name, Objects.requireNonNull(settings, "settings"), storeOf(name, settings));
    }

    /** {@link #createSequence(String, SequenceSettings)} with the declared, else the configured, settings. */
    public void createSequence(String name) {
        createSequence(name, declared.getOrDefault(name, settingsFor(name)));
    }

    /**
     * Declares, without I/O, the settings a user will open a sequence with, so that whoever creates the row first uses
     * them; a {@link SequenceConfigurationException} if declared, or open, with other settings.
     */
    public void declare(String name, SequenceSettings settings) {
        SequenceSettings first = declared.putIfAbsent(name, Objects.requireNonNull(settings, "settings"));
        requireSameSettings(name, first != null ? first : settings, settings);
        requireSettings(name, settings);
    }

    /** The lock is held over the I/O: a second user must wait anyway. */
    private void createRowOnce(String name, SequenceSettings settings, SequenceStore served) {
        synchronized (rows) {
            if (!rows.contains(name)) {
                Sequences.createRow(name, settings, served, ticker);
                rows.add(name);
            }
        }
    }

    /**
     * {@return the store of the settings' kind; when unset, the primary store (for SYNC the table store if any)} A
     * {@link SequenceConfigurationException} names the sequence if the registry has no store of that kind.
     */
    public SequenceStore storeOf(String name, SequenceSettings settings) {
        if (!Objects.requireNonNull(settings, "settings").kindSet()) {
            return settings.strategy() == Strategy.SYNC ? stores.getOrDefault(CounterKind.TABLE, store) : store;
        }
        SequenceStore served = stores.get(settings.kind());
        if (served == null) {
            throw new SequenceConfigurationException("sequences." + name + ".kind", settings.kind().externalName(),
                    "a kind this registry has a store for: " + stores.keySet().stream().map(CounterKind::externalName)
                            .sorted().collect(Collectors.joining(", ")));
        }
        return served;
    }

    private static IllegalStateException closedError(String name) {
        return new IllegalStateException("the sequence registry is closed; cannot create sequence '" + name + "'");
    }

    private SequenceStore newRow(String name, SequenceSettings settings) {
        if (closed) {
            throw closedError(name);
        }
        SequenceStore served = storeOf(name, settings);
        createRowOnce(name, settings, served);
        return served;
    }

    /** {@link #warmUp(Duration)} within the longest acquire timeout among the sequences it warms up. */
    public void warmUp() {
        Set<String> names = blockSequenceNames();
        warmUp(names, names.stream().map(name -> settingsOf(name).acquireTimeout()).max(Duration::compareTo)
                .orElse(defaults.acquireTimeout()));
    }

    /** {@link #warmUp(Collection, Duration)} for each configured or open BATCH or ASYNC_BATCH sequence. */
    public void warmUp(Duration timeout) {
        warmUp(blockSequenceNames(), timeout);
    }

    private Set<String> blockSequenceNames() {
        Set<String> names = new LinkedHashSet<>(perSequence.keySet());
        names.addAll(sequences.keySet());
        // SYNC and ASYNC hold nothing to warm; opening them would only mark them in use.
        names.removeIf(name -> !Set.of(Strategy.BATCH, Strategy.ASYNC_BATCH).contains(settingsOf(name).strategy()));
        return names;
    }

    /**
     * Opens the named sequences (declared, else configured, settings), as {@link #sequence(String, SequenceSettings)},
     * and waits until each holds its first block, within {@code timeout} for all; a late reservation goes on in the
     * background, and a {@link SequenceUnavailableException} names the first late one, the others suppressed in it.
     * SYNC and ASYNC sequences are only opened. See docs/design.md#the-first-block-and-the-start-up-queue.
     */
    public void warmUp(Collection<String> names, Duration timeout) {
        long deadline = ticker.read() + timeout.toNanos();
        awaitFirstBlocks(names.stream().map(name -> sequence(name, settingsOf(name))).toList(), deadline, timeout);
    }

    /**
     * Opens the series of a sequence and waits for their first blocks, as {@link #warmUp(Collection, Duration)}. A
     * {@linkplain #declare declared} sequence is left to the framework that declared it (logged at INFO).
     */
    public void warmUpSeries(String name, Collection<String> keys, Duration timeout) {
        long deadline = ticker.read() + timeout.toNanos();
        if (declared.containsKey(name)) {
            // A block or row made here could hold a number the entities' table has.
            LOG.log(System.Logger.Level.INFO, () -> "seqgen: the warm-up leaves the " + keys.size() + " series of"
                    + " sequence '" + name + "' it was given: entities number it, and open each series at its first"
                    + " use, after reading the numbers their table holds");
            return;
        }
        awaitFirstBlocks(keys.stream().map(key -> series(name, key)).toList(), deadline, timeout);
    }

    /** Waits for the first blocks of sequences opened by this registry, as {@link #warmUp(Collection, Duration)}. */
    public void awaitFirstBlocks(Collection<Sequence> opened, Duration timeout) {
        awaitFirstBlocks(List.copyOf(opened), ticker.read() + timeout.toNanos(), timeout);
    }

    /** {@return whether the name is configured, {@linkplain #declare declared} or open} */
    public boolean knows(String name) {
        return perSequence.containsKey(name) || declared.containsKey(name) || sequences.containsKey(name);
    }

    private static void awaitFirstBlocks(List<Sequence> opened, long deadline, Duration timeout) {
        List<SequenceUnavailableException> late = new ArrayList<>();
        for (Sequence sequence : opened) {
            try {
                if (sequence instanceof SeriesSequence series) {
                    series.awaitFirstBlock(deadline);
                } else if (sequence instanceof AbstractSequence blocks) {
                    blocks.awaitFirstBlock(deadline);
                }
            } catch (SequenceUnavailableException e) {
                late.add(new SequenceUnavailableException(sequence.name(),
                        "its first block was not in hand within the warm-up's " + timeout + ": " + e.getMessage(), e));
            }
        }
        if (!late.isEmpty()) {
            late.subList(1, late.size()).forEach(late.get(0)::addSuppressed);
            throw late.get(0);
        }
    }

    /** {@link #warmUp(Collection, Duration)} for one sequence opened with {@code settings}; it stays open if late. */
    public Sequence warmUp(String name, SequenceSettings settings, Duration timeout) {
        long deadline = ticker.read() + timeout.toNanos();
        Sequence sequence = sequence(name, settings);
        awaitFirstBlocks(List.of(sequence), deadline, timeout);
        return sequence;
    }

    private SequenceSettings settingsOf(String name) {
        Sequence open = sequences.get(name);
        return open != null ? open.settings() : declared.getOrDefault(name, settingsFor(name));
    }

    /** {@return the settings {@link #sequence(String)} uses: the sequence's own if configured, else the defaults} */
    public SequenceSettings settingsFor(String name) {
        return perSequence.getOrDefault(name, defaults);
    }

    /** {@return where each value set for a sequence came from, as the builder was told; empty if unknown} */
    public Map<Setting, String> sourcesFor(String name) {
        return sources.getOrDefault(name, Map.of());
    }

    /** {@return the default settings} */
    public SequenceSettings defaults() {
        return defaults;
    }

    /** {@return a snapshot of the sequences created so far, without series ({@link #openSeries} lists those)} */
    public Collection<Sequence> sequences() {
        return sequences.values().stream().filter(sequence -> !(sequence instanceof SeriesSequence)).toList();
    }

    /** {@return the names of the sequences with open series, sorted} */
    public SortedSet<String> seriesSequences() {
        return sequences.values().stream().filter(SeriesSequence.class::isInstance)
                .map(series -> ((SeriesSequence) series).sequenceName()).collect(Collectors.toCollection(TreeSet::new));
    }

    /** {@return the store the registry was built over} */
    public SequenceStore store() {
        return store;
    }

    /** {@return the store of the sequences of {@code kind}, if the registry has one} */
    public Optional<SequenceStore> store(CounterKind kind) {
        return Optional.ofNullable(stores.get(Objects.requireNonNull(kind, "kind")));
    }

    /** {@link #storeOf(String, SequenceSettings)} with the sequence's settings once open, else {@link #settingsFor}. */
    public SequenceStore storeOf(String name) {
        Sequence open = sequences.get(name);
        return storeOf(name, open != null ? open.settings() : settingsFor(name));
    }

    /** {@return every store of the registry, the primary one first} */
    public List<SequenceStore> stores() {
        return Stream.concat(Stream.of(store), stores.values().stream().filter(other -> other != store)).toList();
    }

    /** {@link #closeAndReport()}, logging each report (WARNING when the store failed). Idempotent. */
    @Override
    public void close() {
        closeAndReport().forEach(AbstractSequence::log);
    }

    /** Closes every sequence and stops the background refills; {@return a report per sequence, empty if closed} */
    public List<CloseReport> closeAndReport() {
        closed = true;
        List<CloseReport> reports = new ArrayList<>();
        Map<String, List<CloseReport>> seriesReports = new TreeMap<>();
        lifecycle.writeLock().lock();
        try {
            for (Sequence sequence : sequences.values()) {
                if (!(sequence instanceof SeriesSequence series)) {
                    Optional.ofNullable(Sequences.closeAndReport(sequence)).ifPresent(reports::add);
                } else {
                    Optional.ofNullable(series.closeAndReport()).ifPresent(report -> seriesReports
                            .computeIfAbsent(series.sequenceName(), ignored -> new ArrayList<>()).add(report));
                }
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
        seriesReports.forEach((name, series) -> reports.add(CloseReport.ofSeries(name, series)));
        seriesGroups.values().forEach(SeriesGroup::closeTracker);
        stopSweeper();
        if (ownedExecutor != null) {
            ownedExecutor.shutdown();
            try {
                ownedExecutor.awaitTermination(EXECUTOR_SHUTDOWN_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return List.copyOf(reports);
    }

    /** Builds a {@link SequenceRegistry}. */
    public static final class Builder {

        private final SequenceStore store;
        private SequenceSettings defaults = SequenceSettings.defaults();
        private final Map<String, SequenceSettings> perSequence = new LinkedHashMap<>();
        private final Map<String, Map<Setting, String>> sources = new LinkedHashMap<>();
        private @Nullable Executor executor;
        private Ticker ticker = Ticker.systemTicker();
        private SequenceMetricsTrackerFactory metrics = SequenceMetricsTrackerFactory.noop();
        private Duration seriesIdleTimeout = DEFAULT_SERIES_IDLE_TIMEOUT;
        private final Map<CounterKind, SequenceStore> stores = new EnumMap<>(CounterKind.class);

        private Builder(SequenceStore store) {
            this.store = Objects.requireNonNull(store, "store");
            stores.put(store.kind(), store);
        }

        /** Adds the store of its {@link SequenceStore#kind() kind} (not closed by the registry); one per kind. */
        public Builder store(SequenceStore other) {
            SequenceStore existing = stores.putIfAbsent(Objects.requireNonNull(other, "store").kind(), other);
            if (existing != null && existing != other) {
                throw new IllegalArgumentException("the registry already has a store of the kind "
                        + other.kind().externalName() + ": " + existing);
            }
            return this;
        }

        /** Sets the settings of every sequence without its own. Default {@link SequenceSettings#defaults()}. */
        public Builder defaults(SequenceSettings defaults) {
            this.defaults = Objects.requireNonNull(defaults, "defaults");
            return this;
        }

        /** Sets the settings of one sequence; a {@link SequenceConfigurationException} if the name is not valid. */
        public Builder sequence(String name, SequenceSettings settings) {
            perSequence.put(Identifiers.requireSequenceName(name), Objects.requireNonNull(settings, "settings"));
            sources.remove(name);
            return this;
        }

        /** As {@link #sequence(String, SequenceSettings)}, with each set value's source (a property name) for logs. */
        public Builder sequence(String name, SequenceSettings settings, Map<Setting, String> sources) {
            Map<Setting, String> bySetting = new EnumMap<>(Setting.class);
            Objects.requireNonNull(sources, "sources").forEach((setting, source) -> bySetting.put(
                    Objects.requireNonNull(setting, "setting"), Objects.requireNonNull(source, "source")));
            sequence(name, settings);
            this.sources.put(name, Collections.unmodifiableMap(bySetting));
            return this;
        }

        /**
         * Sets the executor of ASYNC_BATCH background refills, which the registry does not shut down. Default: a
         * cached pool of daemon threads {@code seqgen-refill-N}, shut down by {@link SequenceRegistry#close()}.
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** Sets the time source, to facilitate testing. Default {@link Ticker#systemTicker()}. */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /** Sets the factory of per-sequence metrics trackers. Default: no metrics. */
        public Builder metrics(SequenceMetricsTrackerFactory metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /** Sets how long a series may go unused before it is released, 0 (never) or more. Default 10 minutes. */
        public Builder seriesIdleTimeout(Duration idleTimeout) {
            if (Objects.requireNonNull(idleTimeout, "idleTimeout").isNegative()) {
                throw new SequenceConfigurationException(SERIES_IDLE_TIMEOUT_SETTING, idleTimeout,
                        "a duration of 0 (never released) or more");
            }
            this.seriesIdleTimeout = idleTimeout;
            return this;
        }

        /** {@return the registry; sequences are created on first use} */
        public SequenceRegistry build() {
            return new SequenceRegistry(this);
        }
    }
}
