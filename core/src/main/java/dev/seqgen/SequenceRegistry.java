package dev.seqgen;

import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.SequenceStore;

import java.time.Duration;
import java.util.ArrayList;
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
import java.util.StringJoiner;
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
import org.jspecify.annotations.Nullable;

/**
 * Gives out one shared {@link Sequence} per name, and closes them all. Each sequence is served by the registry's
 * store of its {@link SequenceSettings#kind() kind}: the store the registry is built over, and at most one more
 * store of each other kind ({@link Builder#store(SequenceStore)}), so that one application can count its ids in
 * database sequences and its invoice numbers, gapless, in the sequence table. Every entity, session
 * and thread in a JVM that uses a name should get its sequence from the same registry, so that the name has
 * one block in hand and one set of counters.
 *
 * <pre>{@code
 * try (SequenceRegistry registry = SequenceRegistry.builder(JdbcSequenceStore.builder(dataSource).build())
 *         .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC_BATCH).blockSize(1000).build())
 *         .build()) {
 *     long orderId = registry.sequence("orders").next();
 * }
 * }</pre>
 */
public final class SequenceRegistry implements AutoCloseable {

    /** The default of {@link Builder#seriesIdleTimeout(Duration)}: 10 minutes. */
    public static final Duration DEFAULT_SERIES_IDLE_TIMEOUT = Duration.ofMinutes(10);

    /** The name of the idle timeout of series in messages; the Spring Boot starter prefixes it with {@code seqgen.}. */
    public static final String SERIES_IDLE_TIMEOUT_SETTING = "series.idle-timeout";

    /** How long {@link #close()} waits for background refills to finish after the sequences closed. */
    private static final long EXECUTOR_SHUTDOWN_SECONDS = 10;

    private static final System.Logger LOG = System.getLogger(SequenceRegistry.class.getName());

    private final SequenceStore store;
    /** The store of each kind the registry serves; the primary {@link #store} is one of them. */
    private final Map<CounterKind, SequenceStore> stores;
    private final SequenceSettings defaults;
    private final Map<String, SequenceSettings> perSequence;
    /** Where each sequence's values were set, by setting, where the builder was told. */
    private final Map<String, Map<Setting, String>> sources;
    private final Executor executor;
    private final @Nullable ExecutorService ownedExecutor;
    private final Ticker ticker;
    private final SequenceMetricsTrackerFactory metrics;
    /** The longest name of a row: the sequence table's name column. */
    private static final int MAX_ROW_NAME = 64;
    /** Between a sequence's name and a series key in the series' row name; never part of a sequence name. */
    private static final char SERIES_SEPARATOR = '#';
    /** What a series key's part may hold beside letters and digits. */
    private static final String SERIES_KEY_PUNCTUATION = " _.-:@+";

    private final ConcurrentHashMap<String, Sequence> sequences = new ConcurrentHashMap<>();
    /** What the series of each sequence share (meters, counts of released series), by sequence name. */
    private final ConcurrentHashMap<String, SeriesGroup> seriesGroups = new ConcurrentHashMap<>();
    /** How long a series may go unused before {@link #releaseIdleSeries()} releases it; zero: never. */
    private final Duration seriesIdleTimeout;
    /**
     * Held by one sweep of idle series at a time ({@link #releaseIdleSeries()}), around the locks a release takes (a
     * series' monitor, then its group's, then the map's); taken by nothing that holds another lock.
     */
    private final Object sweep = new Object();
    /** Guards {@link #sweeps}: taken alone, never while a map's bin lock or {@link #sweep} is held elsewhere. */
    private final Object sweeperStart = new Object();
    /** This registry's periodic {@link #releaseIdleSeries()} once a series is open; null before, and after close. */
    private @Nullable ScheduledFuture<?> sweeps;
    /**
     * The rows this registry made sure of, once each. Guarded by itself; entered inside the bin lock of
     * {@link #sequences} or alone, never the other way round.
     */
    private final Set<String> rows = new HashSet<>();
    /** The settings users declared for a name before creating it ({@link #declare}); the first declaration wins. */
    private final ConcurrentHashMap<String, SequenceSettings> declared = new ConcurrentHashMap<>();
    /**
     * Creations hold the read lock from their closed check until the new sequence is in the map; close takes the
     * write lock after setting closed, so it waits for creations already under way and then sees (and closes)
     * every sequence they made, while later creations find the registry closed. Only creations take it: a
     * sequence that exists is returned without it.
     */
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private volatile boolean closed;

    private SequenceRegistry(Builder builder) {
        this.store = builder.store;
        this.stores = Map.copyOf(builder.stores);
        this.defaults = builder.defaults;
        this.perSequence = Map.copyOf(builder.perSequence);
        this.sources = Map.copyOf(builder.sources);
        this.ownedExecutor = builder.executor == null ? Executors.newCachedThreadPool(new RefillThreads()) : null;
        this.executor = builder.executor == null ? ownedExecutor : builder.executor;
        this.ticker = builder.ticker;
        this.metrics = builder.metrics;
        this.seriesIdleTimeout = builder.seriesIdleTimeout;
        LOG.log(System.Logger.Level.INFO, () -> "seqgen registry on the " + store.name() + " store " + store
                + (stores.size() > 1 ? " and " + stores.values().stream().filter(other -> other != store)
                        .map(Object::toString).collect(java.util.stream.Collectors.joining(" and ")) : "")
                + "; defaults: " + describeDefaults(defaults)
                + (perSequence.isEmpty() ? "" : "; per sequence: " + describePerSequence()));
    }

    /** The defaults for the start-up line; a skip range only when set. */
    private static String describeDefaults(SequenceSettings defaults) {
        StringJoiner text = new StringJoiner(", ", "{", "}");
        for (Setting setting : Setting.values()) {
            if (setting != Setting.SKIP_RANGE) {
                text.add(setting.key() + "=" + setting.valueIn(defaults));
            } else if (!defaults.skipRange().isEmpty()) {
                text.add(setting.key() + "=" + defaults.skipRange()
                        + (defaults.keyOrder() == KeyOrder.BIT_REVERSED ? "" : " (bit-reversed sequences only)"));
            }
        }
        return text.toString();
    }

    /** The sequences with settings of their own, for the start-up line: what was set and where, or what differs. */
    private String describePerSequence() {
        StringJoiner text = new StringJoiner(", ");
        new TreeMap<>(perSequence).forEach((name, settings) -> {
            List<String> values = new ArrayList<>();
            Map<Setting, String> set = sources.get(name);
            if (set != null) {
                set.forEach((setting, source) -> values.add(source + "=" + setting.valueIn(settings)));
            } else {
                for (Setting setting : Setting.values()) {
                    if (ownValue(setting, settings)) {
                        values.add(setting.key() + "=" + setting.valueIn(settings));
                    }
                }
                values.add(values.isEmpty() ? "the defaults" : "where its settings differ from the defaults");
            }
            text.add(name + " (" + (values.isEmpty() ? "nothing set" : String.join(", ", values)) + ")");
        });
        return text.toString();
    }

    /** Whether a sequence's value differs from the default and is its own, not one that follows from another. */
    private boolean ownValue(Setting setting, SequenceSettings settings) {
        boolean derived = setting == Setting.LOW_WATERMARK && !settings.lowWatermarkSet()
                || setting == Setting.ADAPTIVE_ENABLED && !settings.adaptiveSet()
                || setting == Setting.KIND && !settings.kindSet();
        return !derived && !setting.valueIn(settings).equals(setting.valueIn(defaults));
    }

    /**
     * Returns a builder for a registry over the given store.
     *
     * @param store the store that holds the sequences' rows
     * @return a new builder
     */
    public static Builder builder(SequenceStore store) {
        return new Builder(store);
    }

    /**
     * Returns the sequence with this name, creating it (and its row, at the initial value) on first use
     * with the settings configured for the name, or the defaults.
     *
     * @param name the sequence name
     * @return the shared sequence
     * @throws SequenceConfigurationException if the name is not valid
     * @throws SequenceUnavailableException if the row could not be created
     * @throws IllegalStateException if the registry is closed
     */
    public Sequence sequence(String name) {
        return sequence(name, settingsFor(name));
    }

    /**
     * Returns the sequence with this name, creating it with the given settings on first use.
     *
     * @param name the sequence name
     * @param settings the settings it must have
     * @return the shared sequence
     * @throws SequenceConfigurationException if the name is not valid, or the sequence already exists with
     *     other settings (two users of one name must agree on them)
     * @throws SequenceUnavailableException if the row could not be created
     * @throws IllegalStateException if the registry is closed
     */
    public Sequence sequence(String name, SequenceSettings settings) {
        Objects.requireNonNull(settings, "settings");
        Sequence sequence = sequences.get(name);
        if (sequence == null) {
            Identifiers.requireSequenceName(name);
            lifecycle.readLock().lock();
            try {
                sequence = sequences.computeIfAbsent(name, key -> create(key, settings));
            } finally {
                lifecycle.readLock().unlock();
            }
            // A creation that was under way when close() began: close() closes what it made (it waits for the read
            // lock), and the caller is told, as any caller after close, instead of getting a closed sequence.
            if (closed) {
                throw closedError(name);
            }
        }
        requireSameSettings(name, sequence.settings(), settings);
        return sequence;
    }

    /**
     * Returns one series of a sequence: a counter of its own for one key (a tenant, a year, or several parts), with
     * the sequence's {@link #settingsFor(String) configured settings} and guarantees. Its row,
     * {@link #seriesRow(String, String) name#key}, is created on first use; values are unique within the series.
     *
     * @param name the sequence name
     * @param key the series key, from {@link #seriesKey(List)} or one part of its rules
     * @return the shared sequence of the series
     * @throws SequenceConfigurationException if the name or the key is not valid, or the sequence is counted in a
     *     native database sequence (a series needs a row of seqgen's table)
     * @throws SequenceUnavailableException if the row could not be created
     * @throws IllegalStateException if the registry is closed
     */
    public Sequence series(String name, String key) {
        return series(name, key, settingsFor(name));
    }

    /**
     * Returns one series of a sequence, as {@link #series(String, String)}, created with the given settings.
     *
     * @param name the sequence name
     * @param key the series key
     * @param settings the sequence's settings
     * @return the shared sequence of the series
     * @throws SequenceConfigurationException if the name or the key is not valid, the sequence is counted in a
     *     native database sequence, or the series is open with other settings
     * @throws SequenceUnavailableException if the row could not be created
     * @throws IllegalStateException if the registry is closed
     */
    public Sequence series(String name, String key, SequenceSettings settings) {
        String row = seriesRow(name, key);
        for (;;) {
            Sequence open = sequences.get(row);
            if (open == null) {
                requireSeriesStore(name, settings);
                lifecycle.readLock().lock();
                try {
                    open = sequences.computeIfAbsent(row, ignored -> openNewSeries(name, row, settings));
                } finally {
                    lifecycle.readLock().unlock();
                }
                // After the series is in the map, so that a sweep stopping for want of series sees it or is
                // followed by this start (stopSweeperIfNoSeries).
                startSweeper();
                if (closed) {
                    throw closedError(row);
                }
            }
            if (open instanceof SeriesSequence handle && handle.released()) {
                // Released as idle a moment ago: wait until its release is done (it holds the handle's monitor
                // until the handle is out of the map, see SeriesSequence), then open the series again.
                synchronized (handle) {
                    sequences.remove(row, handle);
                }
                continue;
            }
            requireSameSettings(row, open.settings(), settings);
            return open;
        }
    }

    /**
     * Makes sure the row of one series exists without opening it, as {@link #createSequence(String, SequenceSettings)}.
     *
     * @param name the sequence name
     * @param key the series key
     * @param settings the sequence's settings
     * @return the name of the series' row
     * @throws SequenceConfigurationException if the name or the key is not valid, or the sequence is counted in a
     *     native database sequence
     * @throws SequenceUnavailableException if the row could not be created
     */
    public String createSeries(String name, String key, SequenceSettings settings) {
        String row = seriesRow(name, key);
        createRowOnce(row, Objects.requireNonNull(settings, "settings"), requireSeriesStore(name, settings));
        return row;
    }

    /**
     * Returns the name of the row that counts one series of a sequence: {@code name#key} ({@code #} is never in a
     * sequence name).
     *
     * @param name the sequence name
     * @param key the series key: 1 or more parts joined by {@code /}, each of letters, digits, space and
     *     {@code _ . - : @ +}
     * @return the row's name, at most 64 characters
     * @throws SequenceConfigurationException if the name or the key is not valid, or the row's name would be longer
     *     than 64 characters
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

    /**
     * Returns the series key of several parts, in order: {@code ["acme", "2026"]} gives {@code acme/2026}.
     *
     * @param parts the parts, each of letters, digits, space and {@code _ . - : @ +}, not empty
     * @return the key
     * @throws SequenceConfigurationException if a part is empty or holds another character
     */
    public static String seriesKey(List<String> parts) {
        if (parts.isEmpty()) {
            throw new SequenceConfigurationException("series key", "[]", "at least one part");
        }
        for (String part : parts) {
            requireSeriesPart("series key", String.join("/", parts), part);
        }
        return String.join("/", parts);
    }

    /**
     * Returns one series if it is open in this registry now (not released as idle), without opening it and without
     * I/O; a key that is not valid is not found.
     *
     * @param name the sequence name
     * @param key the series key
     * @return the open series' sequence, or null if the series is not open (never opened in this registry, or
     *     released)
     */
    public @Nullable Sequence seriesIfOpen(String name, String key) {
        Sequence open = sequences.get(name + SERIES_SEPARATOR + key);
        return open instanceof SeriesSequence handle && !handle.released() ? open : null;
    }

    /**
     * Returns the series of a sequence open in this registry, by key, for listings.
     *
     * @param name the sequence name
     * @return the open series' sequences, by key, in key order
     */
    public SortedMap<String, Sequence> openSeries(String name) {
        String prefix = name + SERIES_SEPARATOR;
        SortedMap<String, Sequence> open = new TreeMap<>();
        sequences.forEach((row, sequence) -> {
            if (row.startsWith(prefix) && !(sequence instanceof SeriesSequence series && series.released())) {
                open.put(row.substring(prefix.length()), sequence);
            }
        });
        return open;
    }

    private int openSeriesCount(String name) {
        int count = 0;
        for (SeriesSequence series : seriesInMap(name)) {
            count += series.released() ? 0 : 1;
        }
        return count;
    }

    /** The series of a sequence in the map, those being released included; for statistics. */
    private List<SeriesSequence> seriesInMap(String name) {
        String prefix = name + SERIES_SEPARATOR;
        List<SeriesSequence> open = new ArrayList<>();
        sequences.forEach((row, sequence) -> {
            if (sequence instanceof SeriesSequence series && row.startsWith(prefix)) {
                open.add(series);
            }
        });
        return open;
    }

    /** The statistics of the series of this row open now, or none (a series released and not opened again). */
    @Nullable SequenceStats openSeriesStats(String row) {
        Sequence open = sequences.get(row);
        Sequence sequence = open instanceof SeriesSequence series ? series.sequence() : null;
        return sequence == null ? null : sequence.stats();
    }

    /**
     * Returns how long a series may go unused before the registry releases it ({@link Builder#seriesIdleTimeout}).
     *
     * @return the idle timeout; zero if series are never released
     */
    public Duration seriesIdleTimeout() {
        return seriesIdleTimeout;
    }

    /**
     * Releases the series not used for the {@linkplain Builder#seriesIdleTimeout idle timeout}: each is closed as
     * {@link #close()} closes a sequence (unused values go back or are kept) and dropped; its next use opens it
     * again, and a {@link Sequence} kept by a caller forwards to it. A series with a call under way stays. The
     * registry runs this on a shared daemon thread every half idle timeout (at most every minute) while a series is
     * open. Logged once per sequence and sweep: DEBUG, or WARNING when values were lost.
     *
     * @return how many series were released
     */
    public int releaseIdleSeries() {
        if (seriesIdleTimeout.isZero()) {
            return 0;
        }
        long idle = seriesIdleTimeout.toNanos();
        Map<String, List<CloseReport>> released = new TreeMap<>();
        synchronized (sweep) {
            long now = ticker.read();
            for (Sequence sequence : sequences.values()) {
                if (closed) {
                    break;
                }
                if (!(sequence instanceof SeriesSequence series)) {
                    continue;
                }
                if (series.takeUsed() || series.inUse()) {
                    series.idleSince = now;
                } else if (now - series.idleSince >= idle) {
                    CloseReport report = release(series);
                    if (report != null) {
                        released.computeIfAbsent(series.sequenceName(), ignored -> new ArrayList<>()).add(report);
                    }
                }
            }
        }
        stopSweeperIfNoSeries();
        int count = 0;
        for (Map.Entry<String, List<CloseReport>> entry : released.entrySet()) {
            count += entry.getValue().size();
            CloseReport summary = CloseReport.ofSeries(entry.getKey(), entry.getValue());
            String line = "seqgen: released series not used for " + seriesIdleTimeout + ": " + summary.message();
            if (summary.lost() > 0 || summary.failed()) {
                LOG.log(System.Logger.Level.WARNING, line, summary.failure());
            } else {
                LOG.log(System.Logger.Level.DEBUG, line);
            }
        }
        return count;
    }

    /** Releases one series if no call is inside it (see {@link SeriesSequence}); null if it was not released. */
    private @Nullable CloseReport release(SeriesSequence series) {
        synchronized (series) {
            Sequence open = series.release();
            if (open == null) {
                return null;
            }
            try {
                return Sequences.closeAndReport(open);
            } finally {
                SeriesGroup group = seriesGroups.get(series.sequenceName());
                if (group != null) {
                    synchronized (group) {
                        group.retire(open.stats());
                        series.clear();
                        sequences.remove(series.name(), series);
                    }
                } else {
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
     * Stops the periodic release once no series is open, so that nothing holds an unused registry. Under
     * {@link #sweeperStart}, as the start, which follows the series' insertion: this sees it, or the start follows.
     */
    private void stopSweeperIfNoSeries() {
        synchronized (sweeperStart) {
            if (sweeps == null) {
                return;
            }
            for (Sequence sequence : sequences.values()) {
                if (sequence instanceof SeriesSequence) {
                    return;
                }
            }
            sweeps.cancel(false);
            sweeps = null;
        }
    }

    /** {@return the clock the registry reads, for registries built beside it} */
    public Ticker ticker() {
        return ticker;
    }

    /** {@return the factory of metrics trackers the registry was built with; the no-op one when none was set} */
    public SequenceMetricsTrackerFactory metrics() {
        return metrics;
    }

    /** Starts the periodic release of idle series, once a series is open. */
    private void startSweeper() {
        if (seriesIdleTimeout.isZero()) {
            return;
        }
        synchronized (sweeperStart) {
            if (sweeps != null || closed) {
                return;
            }
            long period = Math.max(10, Math.min(seriesIdleTimeout.toMillis() / 2, TimeUnit.MINUTES.toMillis(1)));
            sweeps = IdleSeriesThread.EXECUTOR.scheduleWithFixedDelay(this::releaseIdleSeriesQuietly, period, period,
                    TimeUnit.MILLISECONDS);
        }
    }

    /** The one daemon thread of the JVM that releases idle series, for every registry (there may be one per tenant). */
    private static final class IdleSeriesThread {

        static final ScheduledThreadPoolExecutor EXECUTOR = executor();

        private static ScheduledThreadPoolExecutor executor() {
            ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, task -> {
                Thread thread = new Thread(task, "seqgen-series-idle");
                thread.setDaemon(true);
                return thread;
            });
            // A closed registry's sweeps leave the queue at once, and the registry with them.
            executor.setRemoveOnCancelPolicy(true);
            return executor;
        }
    }

    private void releaseIdleSeriesQuietly() {
        try {
            releaseIdleSeries();
        } catch (RuntimeException e) {
            // The next sweep tries again; a failure of the store is in the series' report, this is anything else.
            LOG.log(System.Logger.Level.WARNING, "seqgen: the release of idle series failed", e);
        }
    }

    private static void requireSeriesPart(String setting, String key, String part) {
        boolean valid = !part.isEmpty() && part.chars().allMatch(c -> Character.isLetterOrDigit(c)
                || SERIES_KEY_PUNCTUATION.indexOf(c) >= 0);
        if (!valid) {
            throw new SequenceConfigurationException(setting, "'" + key + "'",
                    "parts joined by '/', each of 1 or more letters, digits, spaces and " + SERIES_KEY_PUNCTUATION
                            .replace(" ", "") + (part.isEmpty() ? " (a part is empty)" : " (part '" + part + "')"));
        }
    }

    /** A series needs a row of seqgen's table: a native database sequence per series is not made. */
    private SequenceStore requireSeriesStore(String name, SequenceSettings settings) {
        SequenceStore served = storeFor(name, settings);
        if (served.kind() != CounterKind.TABLE) {
            throw new SequenceConfigurationException("sequences." + name + ".kind", served.kind().externalName(),
                    "table for a sequence numbered in series (each series is a row of seqgen's table)");
        }
        return served;
    }

    private Sequence openNewSeries(String name, String row, SequenceSettings settings) {
        if (closed) {
            throw closedError(row);
        }
        SequenceStore served = storeFor(row, settings);
        createRowOnce(row, settings, served);
        SeriesGroup group = seriesGroups.computeIfAbsent(name, ignored -> seriesGroup(name, settings, served));
        // Metrics are per sequence, not per series: a tag per tenant or year would be unbounded.
        Sequence sequence = Sequences.create(row, settings, served, ticker, executor,
                (series, store) -> group.seriesTracker());
        Sequence counter = sequence instanceof KeyMappedSequence mapped ? mapped.counter() : sequence;
        ((AbstractSequence) counter).quietFirstBlock();
        return new SeriesSequence(this, row, settings, sequence, ticker.read());
    }

    /** The group of a sequence's series, with its meters: registered once, when its first series opens. */
    private SeriesGroup seriesGroup(String name, SequenceSettings settings, SequenceStore served) {
        SeriesGroup group = new SeriesGroup(name, settings, () -> seriesInMap(name));
        try {
            group.tracker(GuardedMetricsTracker.guard(metrics.create(group.view(), served)));
            metrics.series(name, () -> openSeriesCount(name));
        } catch (RuntimeException e) {
            // A metrics failure never fails a value (as GuardedMetricsTracker guards the sequences' trackers).
            LOG.log(System.Logger.Level.WARNING, "seqgen: the metrics of the series of sequence '" + name
                    + "' could not be registered: " + e);
        }
        return group;
    }

    /**
     * Checks that a sequence this registry already has under {@code name} (if any) has {@code settings}, as
     * {@link #sequence(String, SequenceSettings)} does. No I/O.
     *
     * @param name the sequence name
     * @param settings the settings a user of the sequence asks for
     * @throws SequenceConfigurationException if the registry has the sequence with other settings
     */
    public void requireSettings(String name, SequenceSettings settings) {
        Sequence existing = sequences.get(name);
        if (existing != null) {
            requireSameSettings(name, existing.settings(), settings);
        }
    }

    /**
     * The rule every user of one name meets: the settings the sequence was first created (or first asked) with.
     *
     * @param name the sequence name
     * @param first the settings it was first created or asked with
     * @param asked the settings asked now
     * @throws SequenceConfigurationException naming {@code sequences.<name>} if they differ
     */
    public static void requireSameSettings(String name, SequenceSettings first, SequenceSettings asked) {
        if (!first.equals(asked)) {
            throw new SequenceConfigurationException("sequences." + name, asked,
                    "the settings the sequence was first created with in this registry: " + first);
        }
    }

    /**
     * Makes sure the row of a sequence exists, without opening the sequence: created at the initial value when
     * missing, left as it is otherwise; transient store errors are retried within the acquire timeout.
     *
     * @param name the sequence name
     * @param settings the settings of the sequence (the initial value, the acquire timeout, and what the store
     *     needs to create it, such as the block size of a native sequence)
     * @throws SequenceConfigurationException if the name is not valid, or the store cannot serve the settings
     * @throws SequenceUnavailableException if the row could not be created
     */
    public void createSequence(String name, SequenceSettings settings) {
        Identifiers.requireSequenceName(name);
        createRowOnce(name, Objects.requireNonNull(settings, "settings"), storeFor(name, settings));
    }

    /**
     * {@link #createSequence(String, SequenceSettings)} with the settings {@linkplain #declare declared} for the name,
     * otherwise the configured ones ({@link #settingsFor}).
     *
     * @param name the sequence name
     * @throws SequenceConfigurationException if the name is not valid, or the store cannot serve the settings
     * @throws SequenceUnavailableException if the row could not be created
     */
    public void createSequence(String name) {
        createSequence(name, declared.getOrDefault(name, settingsFor(name)));
    }

    /**
     * Declares the settings a user will open a sequence with, without I/O, so that whoever creates the row first
     * creates it with them. The first declaration of a name fixes its settings; a later one must agree.
     *
     * @param name the sequence name
     * @param settings the settings the user will open the sequence with
     * @throws SequenceConfigurationException if the name was declared, or the sequence created, with other
     *     settings
     */
    public void declare(String name, SequenceSettings settings) {
        Objects.requireNonNull(settings, "settings");
        SequenceSettings first = declared.putIfAbsent(name, settings);
        if (first != null) {
            requireSameSettings(name, first, settings);
        }
        requireSettings(name, settings);
    }

    /** Creates the row unless made sure of before; the lock is held over the I/O (a second user must wait anyway). */
    private void createRowOnce(String name, SequenceSettings settings, SequenceStore served) {
        synchronized (rows) {
            if (rows.contains(name)) {
                return;
            }
            Sequences.createRow(name, settings, served, ticker);
            rows.add(name);
        }
    }

    /** The store of the settings' kind; unset: the primary store, or for SYNC the table store if there is one. */
    private SequenceStore storeFor(String name, SequenceSettings settings) {
        if (!settings.kindSet()) {
            return settings.strategy() == Strategy.SYNC ? stores.getOrDefault(CounterKind.TABLE, store) : store;
        }
        SequenceStore served = stores.get(settings.kind());
        if (served == null) {
            throw new SequenceConfigurationException("sequences." + name + ".kind", settings.kind().externalName(),
                    "a kind this registry has a store for: " + stores.keySet().stream().map(CounterKind::externalName)
                            .sorted().collect(java.util.stream.Collectors.joining(", ")));
        }
        return served;
    }

    private static IllegalStateException closedError(String name) {
        return new IllegalStateException("the sequence registry is closed; cannot create sequence '" + name + "'");
    }

    private Sequence create(String name, SequenceSettings settings) {
        if (closed) {
            throw closedError(name);
        }
        SequenceStore served = storeFor(name, settings);
        createRowOnce(name, settings, served);
        return Sequences.create(name, settings, served, ticker, executor, metrics);
    }

    /**
     * {@link #warmUp(Duration)} within the longest acquire timeout among the sequences it warms up.
     *
     * @throws SequenceUnavailableException naming a sequence whose first block is not in hand within that time
     * @throws IllegalStateException if the registry is closed
     */
    public void warmUp() {
        Set<String> names = blockSequenceNames();
        Duration longest = names.stream().map(name -> settingsOf(name).acquireTimeout())
                .max(Duration::compareTo).orElse(defaults.acquireTimeout());
        warmUp(names, longest);
    }

    /**
     * {@link #warmUp(Collection, Duration)} for every {@code batch} and {@code async-batch} sequence configured or
     * open, within {@code timeout} in all (a start-up limit: a fleet's first reservations queue at the row).
     * Hibernate's sequences are warmed up through {@code SeqgenHibernate.warmUp}, which first reads their tables.
     *
     * @param timeout the longest the call waits, for all the first blocks together
     * @throws SequenceUnavailableException naming a sequence whose first block is not in hand within that time
     * @throws IllegalStateException if the registry is closed
     */
    public void warmUp(Duration timeout) {
        warmUp(blockSequenceNames(), timeout);
    }

    /** The sequences a warm-up opens: configured or open, of a strategy that holds blocks. */
    private Set<String> blockSequenceNames() {
        Set<String> names = new LinkedHashSet<>(perSequence.keySet());
        names.addAll(sequences.keySet());
        // Only sequences that hold blocks have something to warm: a SYNC or ASYNC sequence takes every value from
        // the store when asked, and opening it here would only mark it in use before anyone used it.
        names.removeIf(name -> !holdsBlocks(settingsOf(name).strategy()));
        return names;
    }

    /**
     * Opens the named sequences and waits until each holds its first block, before an application reports itself
     * ready. The reservations run together, bounded by {@code timeout} in all; one not answered by then goes on in
     * the background. A first block has the configured size (from the lowest kept range, split, or from the row),
     * logged at INFO with its origin and why that size. An ASYNC_BATCH sequence also waits for its second block, and
     * a third when the two do not last the queue its reservations met (docs/design.md, "The first block and the
     * start-up queue"); once the first block is in hand, a later one missing the deadline is no error. SYNC and ASYNC
     * sequences are only opened.
     *
     * @param names the sequence names, opened if not open yet with the settings {@linkplain #declare declared} for
     *     them, otherwise {@link #settingsFor(String) their settings}
     * @param timeout the longest the call waits, for all of them together
     * @throws SequenceConfigurationException if a name is not valid
     * @throws SequenceUnavailableException naming the first sequence whose first block is not in hand in time (the
     *     others' failures suppressed in it)
     * @throws IllegalStateException if the registry is closed
     */
    public void warmUp(Collection<String> names, Duration timeout) {
        long deadline = ticker.read() + timeout.toNanos();
        List<Sequence> opened = new ArrayList<>();
        for (String name : names) {
            opened.add(sequence(name, settingsOf(name)));
        }
        awaitFirstBlocks(opened, deadline, timeout);
    }

    /**
     * Opens the named series of a sequence, as {@link #series(String, String)}, and waits until each holds its first
     * block, as {@link #warmUp(Collection, Duration)} does. A sequence a framework {@linkplain #declare declared} is
     * left to that framework, with a line at INFO (Hibernate's: {@code SeqgenHibernate.warmUpSeries}).
     *
     * @param name the sequence name
     * @param keys the series keys
     * @param timeout the longest the call waits, for all of them together
     * @throws SequenceConfigurationException if the name or a key is not valid
     * @throws SequenceUnavailableException naming the first series whose first block is not in hand in time (the
     *     others' failures suppressed in it)
     * @throws IllegalStateException if the registry is closed
     */
    public void warmUpSeries(String name, Collection<String> keys, Duration timeout) {
        long deadline = ticker.read() + timeout.toNanos();
        if (declared.containsKey(name)) {
            // A block or row made here could hold a number the entities' table has, or be in the wrong table.
            LOG.log(System.Logger.Level.INFO, () -> "seqgen: the warm-up leaves the " + keys.size() + " series of"
                    + " sequence '" + name + "' it was given: entities number it, and open each series at its first"
                    + " use, after reading the numbers their table holds");
            return;
        }
        SequenceSettings settings = settingsFor(name);
        List<Sequence> opened = new ArrayList<>();
        for (String key : keys) {
            opened.add(series(name, key, settings));
        }
        awaitFirstBlocks(opened, deadline, timeout);
    }

    /**
     * Waits until each of the given sequences or series holds its first block, as
     * {@link #warmUp(Collection, Duration)} does for those it opens.
     *
     * @param opened sequences or series opened by this registry (or by one with its ticker)
     * @param timeout the longest the call waits, for all of them together
     * @throws SequenceUnavailableException naming the first one whose first block is not in hand in time (the
     *     others' failures suppressed in it)
     */
    public void awaitFirstBlocks(Collection<Sequence> opened, Duration timeout) {
        awaitFirstBlocks(List.copyOf(opened), ticker.read() + timeout.toNanos(), timeout);
    }

    /**
     * Whether this registry knows a sequence: configured, {@linkplain #declare declared} or open (to tell a
     * configured name from a misspelt one).
     *
     * @param name the sequence name
     * @return whether the name is configured, declared or open
     */
    public boolean knows(String name) {
        return perSequence.containsKey(name) || declared.containsKey(name) || sequences.containsKey(name);
    }

    private static void awaitFirstBlocks(List<Sequence> opened, long deadline, Duration timeout) {
        SequenceUnavailableException failure = null;
        for (Sequence sequence : opened) {
            try {
                awaitFirstBlock(sequence, deadline, timeout);
            } catch (SequenceUnavailableException late) {
                if (failure == null) {
                    failure = late;
                } else {
                    failure.addSuppressed(late);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * {@link #warmUp(Collection, Duration)} for one sequence, opened as {@link #sequence(String, SequenceSettings)}.
     *
     * @param name the sequence name
     * @param settings the settings it must have
     * @param timeout the longest the call waits for the first block
     * @return the sequence, open whether or not its first block came in time
     * @throws SequenceConfigurationException if the name is not valid, or the sequence is open with other settings
     * @throws SequenceUnavailableException if the first block is not in hand within {@code timeout} (the sequence
     *     stays open and its reservation goes on in the background)
     * @throws IllegalStateException if the registry is closed
     */
    public Sequence warmUp(String name, SequenceSettings settings, Duration timeout) {
        long deadline = ticker.read() + timeout.toNanos();
        Sequence sequence = sequence(name, settings);
        requireSameSettings(name, sequence.settings(), settings);
        awaitFirstBlock(sequence, deadline, timeout);
        return sequence;
    }

    private static void awaitFirstBlock(Sequence sequence, long deadline, Duration timeout) {
        if (sequence instanceof AbstractSequence || sequence instanceof SeriesSequence) {
            try {
                if (sequence instanceof SeriesSequence series) {
                    series.awaitFirstBlock(deadline);
                } else {
                    ((AbstractSequence) sequence).awaitFirstBlock(deadline);
                }
            } catch (SequenceUnavailableException e) {
                throw new SequenceUnavailableException(sequence.name(), "its first block was not in hand within the"
                        + " warm-up's " + timeout + ": " + e.getMessage(), e);
            }
        }
    }

    private static boolean holdsBlocks(Strategy strategy) {
        return strategy == Strategy.BATCH || strategy == Strategy.ASYNC_BATCH;
    }

    /** The settings of an open sequence, or those it would be opened with. */
    private SequenceSettings settingsOf(String name) {
        Sequence open = sequences.get(name);
        return open != null ? open.settings() : declared.getOrDefault(name, settingsFor(name));
    }

    /**
     * Returns the settings a sequence of this name gets from {@link #sequence(String)}: its own, if
     * configured, otherwise the defaults.
     *
     * @param name the sequence name
     * @return the settings
     */
    public SequenceSettings settingsFor(String name) {
        return perSequence.getOrDefault(name, defaults);
    }

    /**
     * Returns where the values set for a sequence came from, by setting, as the builder was told
     * ({@link Builder#sequence(String, SequenceSettings, Map)}): the Spring Boot starter and the registry seqgen
     * builds for Hibernate name the property of each value set for the sequence. A setting that is absent was not
     * set for the sequence, or the builder was not told where it came from (a sequence given to
     * {@code Builder.sequence(name, settings)}). Frameworks use it to name the value a user set, and never take a
     * default for one.
     *
     * @param name the sequence name
     * @return the sources by setting, empty if none are known
     */
    public Map<Setting, String> sourcesFor(String name) {
        return sources.getOrDefault(name, Map.of());
    }

    /**
     * Returns the default settings.
     *
     * @return the defaults
     */
    public SequenceSettings defaults() {
        return defaults;
    }

    /**
     * Returns the sequences created so far, not their series: a sequence numbered in series may have thousands
     * (tenants, years), which {@link #openSeries(String)} lists by sequence.
     *
     * @return an unmodifiable snapshot
     */
    public Collection<Sequence> sequences() {
        return sequences.values().stream().filter(sequence -> sequence.name().indexOf(SERIES_SEPARATOR) < 0)
                .toList();
    }

    /**
     * Returns the names of the sequences whose series are open in this registry, whether or not the sequence's own
     * row is in use.
     *
     * @return the names, sorted
     */
    public SortedSet<String> seriesSequences() {
        SortedSet<String> names = new TreeSet<>();
        for (String row : sequences.keySet()) {
            int separator = row.indexOf(SERIES_SEPARATOR);
            if (separator > 0) {
                names.add(row.substring(0, separator));
            }
        }
        return names;
    }

    /** {@return the store the registry was built over} */
    public SequenceStore store() {
        return store;
    }

    /**
     * Returns the store that serves the sequences of a kind.
     *
     * @param kind the counter kind
     * @return the store, or empty if the registry has none of that kind
     */
    public Optional<SequenceStore> store(CounterKind kind) {
        return Optional.ofNullable(stores.get(Objects.requireNonNull(kind, "kind")));
    }

    /**
     * Returns the store that serves a sequence: that of its kind, by its settings once open or else its
     * {@linkplain #settingsFor(String) configured settings}.
     *
     * @param name the sequence name
     * @return the store
     * @throws SequenceConfigurationException if the registry has no store of the sequence's kind
     */
    public SequenceStore storeOf(String name) {
        Sequence open = sequences.get(name);
        return storeFor(name, open != null ? open.settings() : settingsFor(name));
    }

    /**
     * Returns the store that would serve a sequence with these settings: that of their kind, or when unset the
     * primary store (for SYNC, the table store if there is one).
     *
     * @param name the sequence name, for the error message
     * @param settings the settings
     * @return the store
     * @throws SequenceConfigurationException if the registry has no store of the settings' kind
     */
    public SequenceStore storeOf(String name, SequenceSettings settings) {
        return storeFor(name, Objects.requireNonNull(settings, "settings"));
    }

    /** {@return every store of the registry, the primary one first} */
    public List<SequenceStore> stores() {
        List<SequenceStore> all = new ArrayList<>();
        all.add(store);
        stores.values().stream().filter(other -> other != store).forEach(all::add);
        return List.copyOf(all);
    }

    /**
     * Closes every sequence and stops the background refills; logs what became of each sequence's unused values
     * (given back to the row, kept for the fleet, or lost, and why) through {@code System.Logger}, at INFO, or at
     * WARNING when the store failed. Idempotent.
     *
     * @see #closeAndReport()
     */
    @Override
    public void close() {
        closeAndReport().forEach(AbstractSequence::log);
    }

    /**
     * Closes as {@link #close()} does, but returns what became of each sequence's unused values instead of logging
     * it. A later {@link #close()} does nothing.
     *
     * @return one report per sequence this call closed; empty if the registry was closed already
     */
    public List<CloseReport> closeAndReport() {
        closed = true;
        List<CloseReport> reports = new ArrayList<>();
        Map<String, List<CloseReport>> seriesReports = new TreeMap<>();
        lifecycle.writeLock().lock();
        try {
            for (Sequence sequence : sequences.values()) {
                if (sequence instanceof SeriesSequence series) {
                    CloseReport report = series.closeAndReport();
                    if (report != null) {
                        seriesReports.computeIfAbsent(series.sequenceName(), ignored -> new ArrayList<>()).add(report);
                    }
                    continue;
                }
                CloseReport report = Sequences.closeAndReport(sequence);
                if (report != null) {
                    reports.add(report);
                }
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
        // One report per sequence for all its series, naming those that lost values.
        seriesReports.forEach((name, series) -> reports.add(CloseReport.ofSeries(name, series)));
        seriesGroups.values().forEach(SeriesGroup::closeTracker);
        synchronized (sweeperStart) {
            if (sweeps != null) {
                sweeps.cancel(false);
                sweeps = null;
            }
        }
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

        /**
         * Adds a store that serves the sequences of its {@link SequenceStore#kind() kind} (a native-sequence store
         * beside the table store, say). The registry does not close the stores.
         *
         * @param other a store of a kind the registry has no store for yet
         * @return this builder
         * @throws IllegalArgumentException if the registry already has a store of that kind
         */
        public Builder store(SequenceStore other) {
            Objects.requireNonNull(other, "store");
            SequenceStore existing = stores.putIfAbsent(other.kind(), other);
            if (existing != null && existing != other) {
                throw new IllegalArgumentException("the registry already has a store of the kind "
                        + other.kind().externalName() + ": " + existing);
            }
            return this;
        }

        /**
         * Sets the settings of every sequence that has none of its own. Default
         * {@link SequenceSettings#defaults()}.
         *
         * @param defaults the default settings
         * @return this builder
         */
        public Builder defaults(SequenceSettings defaults) {
            this.defaults = Objects.requireNonNull(defaults, "defaults");
            return this;
        }

        /**
         * Sets the settings of one sequence; logs show the values that differ from the defaults
         * ({@link #sequence(String, SequenceSettings, Map)} says where each was set).
         *
         * @param name the sequence name
         * @param settings its settings
         * @return this builder
         * @throws SequenceConfigurationException if the name is not valid
         */
        public Builder sequence(String name, SequenceSettings settings) {
            perSequence.put(Identifiers.requireSequenceName(name), Objects.requireNonNull(settings, "settings"));
            sources.remove(name);
            return this;
        }

        /**
         * Sets the settings of one sequence, with where each value set for it came from (for example
         * {@code Map.of(Setting.BLOCK_SIZE, "seqgen.sequences.orders.block-size")}), which logs name
         * ({@link SequenceRegistry#sourcesFor}). A setting absent from {@code sources} was not set.
         *
         * @param name the sequence name
         * @param settings its settings
         * @param sources where each value set for the sequence came from, by setting
         * @return this builder
         * @throws SequenceConfigurationException if the name is not valid
         */
        public Builder sequence(String name, SequenceSettings settings, Map<Setting, String> sources) {
            Map<Setting, String> bySetting = new EnumMap<>(Setting.class);
            Objects.requireNonNull(sources, "sources").forEach((setting, source) -> bySetting.put(
                    Objects.requireNonNull(setting, "setting"), Objects.requireNonNull(source, "source")));
            sequence(name, settings);
            this.sources.put(name, Collections.unmodifiableMap(bySetting));
            return this;
        }

        /**
         * Sets the executor that runs ASYNC_BATCH background refills, to facilitate testing or to share a
         * pool. The registry does not shut down an executor given here. Default: a cached pool of daemon
         * threads named {@code seqgen-refill-N}, shut down by {@link SequenceRegistry#close()}.
         *
         * @param executor the executor
         * @return this builder
         */
        public Builder executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /**
         * Sets the time source, to facilitate testing. Default {@link Ticker#systemTicker()}.
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Sets the factory of per-sequence metrics trackers. Default: no metrics.
         *
         * @param metrics the factory
         * @return this builder
         */
        public Builder metrics(SequenceMetricsTrackerFactory metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /**
         * Sets how long a series may go unused before the registry releases it ({@link #releaseIdleSeries()}).
         * Default {@link #DEFAULT_SERIES_IDLE_TIMEOUT}; zero keeps every series open until the registry closes.
         *
         * @param idleTimeout the idle timeout, zero or positive
         * @return this builder
         * @throws SequenceConfigurationException naming {@code series.idle-timeout} if it is negative
         */
        public Builder seriesIdleTimeout(Duration idleTimeout) {
            Objects.requireNonNull(idleTimeout, "idleTimeout");
            if (idleTimeout.isNegative()) {
                throw new SequenceConfigurationException(SERIES_IDLE_TIMEOUT_SETTING, idleTimeout,
                        "a duration of 0 (never released) or more");
            }
            this.seriesIdleTimeout = idleTimeout;
            return this;
        }

        /**
         * Builds the registry. Sequences are created lazily, on first use.
         *
         * @return the registry
         */
        public SequenceRegistry build() {
            return new SequenceRegistry(this);
        }
    }

    private static final class RefillThreads implements ThreadFactory {

        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "seqgen-refill-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }
}
