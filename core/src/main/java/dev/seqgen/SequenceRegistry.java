package dev.seqgen;

import dev.seqgen.spi.Identifiers;
import dev.seqgen.metrics.SequenceMetricsTrackerFactory;
import dev.seqgen.spi.SequenceStore;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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

    /** How long {@link #close()} waits for background refills to finish after the sequences closed. */
    private static final long EXECUTOR_SHUTDOWN_SECONDS = 10;

    private static final System.Logger LOG = System.getLogger(SequenceRegistry.class.getName());

    private final SequenceStore store;
    /** The store of each kind the registry serves; the primary {@link #store} is one of them. */
    private final Map<CounterKind, SequenceStore> stores;
    private final SequenceSettings defaults;
    private final Map<String, SequenceSettings> perSequence;
    private final Executor executor;
    private final @Nullable ExecutorService ownedExecutor;
    private final Ticker ticker;
    private final SequenceMetricsTrackerFactory metrics;
    private final ConcurrentHashMap<String, Sequence> sequences = new ConcurrentHashMap<>();
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
        this.ownedExecutor = builder.executor == null ? Executors.newCachedThreadPool(new RefillThreads()) : null;
        this.executor = builder.executor == null ? ownedExecutor : builder.executor;
        this.ticker = builder.ticker;
        this.metrics = builder.metrics;
        LOG.log(System.Logger.Level.INFO, () -> "seqgen registry on the " + store.name() + " store " + store
                + (stores.size() > 1 ? " and " + stores.values().stream().filter(other -> other != store)
                        .map(Object::toString).collect(java.util.stream.Collectors.joining(" and ")) : "")
                + "; defaults: " + defaults + (perSequence.isEmpty() ? "" : "; configured: " + perSequence));
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
     * Checks that a sequence this registry already has under {@code name} (if any) has {@code settings}: what
     * {@link #sequence(String, SequenceSettings)} checks, for frameworks that register users of a sequence before
     * it is created and want a disagreement to fail at start-up. No I/O.
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
     * Makes sure the row of a sequence exists in the store, without opening the sequence: created (with the
     * table, where the store creates it) at the settings' initial value when it is missing, left as it is when it
     * exists. Transient store errors (two JVMs creating the row at once under SERIALIZABLE isolation, a lost
     * connection) are retried with backoff within the settings' acquire timeout, as on first use. Frameworks
     * call it at start-up so that a store that cannot create a row fails there.
     *
     * @param name the sequence name
     * @param settings the settings of the sequence (the initial value, the acquire timeout, and what the store
     *     needs to create it, such as the block size of a native sequence)
     * @throws SequenceConfigurationException if the name is not valid, or the store cannot serve the settings
     * @throws SequenceUnavailableException if the row could not be created
     */
    public void createSequence(String name, SequenceSettings settings) {
        Identifiers.requireSequenceName(name);
        Sequences.createRow(name, Objects.requireNonNull(settings, "settings"), storeFor(name, settings), ticker);
    }

    /**
     * The store of the settings' kind; a kind the registry has no store for is a configuration error of the
     * sequence. A kind left unset means the primary store, or for SYNC the table store if there is one (SYNC
     * needs a row that rolls back with the caller's transaction).
     */
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
        Sequences.createRow(name, settings, served, ticker);
        return Sequences.create(name, settings, served, ticker, executor, metrics);
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
     * Returns the default settings.
     *
     * @return the defaults
     */
    public SequenceSettings defaults() {
        return defaults;
    }

    /**
     * Returns the sequences created so far.
     *
     * @return an unmodifiable snapshot
     */
    public Collection<Sequence> sequences() {
        return List.copyOf(sequences.values());
    }

    /**
     * Returns the store the registry was built over: the store of the default settings' kind, unless the
     * builder was told otherwise.
     *
     * @return the primary store
     */
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
     * Returns the store that serves a sequence of this name: the store of the kind of its
     * {@linkplain #settingsFor(String) settings}, or of its own settings once it is open.
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
     * Returns the store that would serve a sequence of this name with these settings: the store of the settings'
     * kind, or, when the kind is not set, the primary store (for SYNC, the table store if the registry has one).
     *
     * @param name the sequence name, for the error message
     * @param settings the settings
     * @return the store
     * @throws SequenceConfigurationException if the registry has no store of the settings' kind
     */
    public SequenceStore storeOf(String name, SequenceSettings settings) {
        return storeFor(name, Objects.requireNonNull(settings, "settings"));
    }

    /**
     * Returns every store of the registry, the primary one first.
     *
     * @return the stores
     */
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
     * Closes every sequence and stops the background refills, as {@link #close()} does, and returns what became of
     * each sequence's unused values instead of logging it: for frameworks that log where the application's log
     * still listens (Spring Boot's starter does, before Boot shuts its logging down). A later {@link #close()} does
     * nothing.
     *
     * @return one report per sequence this call closed; empty if the registry was closed already
     */
    public List<CloseReport> closeAndReport() {
        closed = true;
        List<CloseReport> reports = new ArrayList<>();
        lifecycle.writeLock().lock();
        try {
            for (Sequence sequence : sequences.values()) {
                CloseReport report = Sequences.closeAndReport(sequence);
                if (report != null) {
                    reports.add(report);
                }
            }
        } finally {
            lifecycle.writeLock().unlock();
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
        private @Nullable Executor executor;
        private Ticker ticker = Ticker.systemTicker();
        private SequenceMetricsTrackerFactory metrics = SequenceMetricsTrackerFactory.noop();

        private final Map<CounterKind, SequenceStore> stores = new EnumMap<>(CounterKind.class);

        private Builder(SequenceStore store) {
            this.store = Objects.requireNonNull(store, "store");
            stores.put(store.kind(), store);
        }

        /**
         * Adds a store that serves the sequences of its {@link SequenceStore#kind() kind}, beside the store the
         * registry is built over: a JDBC native-sequence store beside the table store, for example, over the same
         * {@code DataSource}. The registry does not close the stores.
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
         * Sets the settings of one sequence.
         *
         * @param name the sequence name
         * @param settings its settings
         * @return this builder
         * @throws SequenceConfigurationException if the name is not valid
         */
        public Builder sequence(String name, SequenceSettings settings) {
            perSequence.put(Identifiers.requireSequenceName(name), Objects.requireNonNull(settings, "settings"));
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
