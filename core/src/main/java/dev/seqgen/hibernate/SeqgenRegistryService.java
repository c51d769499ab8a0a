package dev.seqgen.hibernate;

import dev.seqgen.KeyOrder;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.GeneratorSettings.Registration;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.jdbc.ApplicationTables;
import java.util.function.ToLongFunction;
import org.hibernate.boot.model.relational.Database;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.event.service.spi.EventListenerRegistry;
import org.hibernate.service.Service;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.hibernate.service.spi.Stoppable;
import org.hibernate.type.descriptor.java.JavaType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate service taking seqgen's generators of one service registry from mapping to first value:
 * docs/design.md#hibernate-start-up-path.
 */
final class SeqgenRegistryService implements Service, Stoppable {

    private static final long serialVersionUID = 1L;

    private final transient RegistrySource source;
    final transient GeneratorSettings generatorSettings;
    private final transient AtomicBoolean spannerExportNoted = new AtomicBoolean();
    // Guarded by this: the registered generators not started yet; the started ones (rows in place) to open at their
    // first value, by name; the tables each series-numbered sequence fills, by sequence, then by generator.
    private final transient List<Registration> pending = new ArrayList<>();
    private final transient Map<String, List<Registration>> unopened = new LinkedHashMap<>();
    private final transient Map<String, Map<String, SeriesTable>> seriesTables = new LinkedHashMap<>();
    /** Guarded by {@code this}; null until a SYNC number reserves at flush. */
    private transient @Nullable FlushReservations flushReservations;
    private transient @Nullable EventListenerRegistry eventListeners;
    /** The listeners the flush listener was registered with. */
    private transient @Nullable EventListenerRegistry listened;
    /** Both written under {@code this}, read without a lock; the second is the registry series open in. */
    private transient volatile @Nullable TenantCounters tenantCounters;
    private transient volatile @Nullable SequenceRegistry seriesRegistry;
    /** By name: whether a sequence whose series opened counts them with each tenant's data. */
    private final transient Map<String, Boolean> seriesWithTenants = new ConcurrentHashMap<>();
    /** Every registered sequence, in order; its own lock, so {@link #seriesSequences} waits for no start-up I/O. */
    private final transient Map<String, Registration> registered = Collections.synchronizedMap(new LinkedHashMap<>());

    SeqgenRegistryService(Map<String, Object> settings, ServiceRegistryImplementor serviceRegistry) {
        this.source = new RegistrySource(settings, serviceRegistry);
        this.generatorSettings = new GeneratorSettings(source);
    }

    void exportTables(Database database) {
        SeqgenTable.export(source, database, spannerExportNoted);
    }

    /** Whichever of this and {@link #numbersAtFlush} comes second registers the flush listener, once. */
    synchronized void listenTo(EventListenerRegistry registry) {
        eventListeners = registry;
        listenToFlushes();
    }

    synchronized FlushReservations numbersAtFlush() {
        if (flushReservations == null) {
            flushReservations = new FlushReservations();
        }
        listenToFlushes();
        return flushReservations;
    }

    private void listenToFlushes() {
        if (flushReservations != null && eventListeners != null && listened != eventListeners) {
            FlushReservationListener.register(eventListeners, flushReservations);
            listened = eventListeners;
        }
    }

    /** Registers a generator for {@link #start()}; throws if its sequence is known with other settings. No I/O. */
    synchronized void register(Registration registration) {
        pending.stream().filter(other -> other.name().equals(registration.name())).findFirst().ifPresent(other ->
                SequenceRegistry.requireSameSettings(registration.name(), other.settings(), registration.settings()));
        // Declared before anyone creates the row, so that a framework creating it at start-up uses these settings.
        SequenceRegistry known = source.givenRegistry();
        if (known != null) {
            known.declare(registration.name(), registration.settings());
        }
        pending.add(registration);
        registered.merge(registration.name(), registration,
                (first, added) -> added.seriesOnly() && !first.seriesOnly() ? added : first);
    }

    /** The sequences some generator numbers in series only, with their settings; no I/O, not the service's lock. */
    SortedMap<String, SequenceSettings> seriesSequences() {
        synchronized (registered) {
            return registered.values().stream().filter(Registration::seriesOnly).collect(Collectors.toMap(
                    Registration::name, Registration::settings, (first, same) -> first, TreeMap::new));
        }
    }

    List<SequenceRegistry> tenantRegistries() {
        TenantCounters counters = tenantCounters;
        return counters == null ? List.of() : counters.registries();
    }

    /** Does the start-up I/O of all registered generators (registry, rows), failing naming entity and sequence. */
    synchronized void start() {
        if (pending.isEmpty()) {
            return;
        }
        SequenceRegistry started = source.registry();
        Map<String, List<Registration>> byName = pending.stream()
                .collect(Collectors.groupingBy(Registration::name, LinkedHashMap::new, Collectors.toList()));
        EntityColumns.requireAssignable(source.connectionProvider(), pending);
        // Sequences with rows first: the first row creates the table (where the store does) series-only ones read.
        List<List<Registration>> groups = new ArrayList<>(byName.values());
        groups.sort(java.util.Comparator.comparing(group -> group.stream().allMatch(Registration::seriesOnly)));
        for (List<Registration> group : groups) {
            Registration first = group.get(0);
            boolean seriesOnly = group.stream().allMatch(Registration::seriesOnly);
            try {
                // Another session factory over the same registry may have created it since register().
                started.requireSettings(first.name(), first.settings());
                // Existing ids are adopted at the first value (open), bit-reversed keys only here, with the row.
                SequenceStore store = started.storeOf(first.name(), first.settings());
                EntityColumns.warnIfTablesElsewhere(group, store, source.platform());
                if (seriesOnly && SeqgenTable.readFailure(store, first.name()) == null) {
                    continue;
                }
                SequenceSettings creation = first.settings().keyOrder() == KeyOrder.SEQUENTIAL
                        ? first.settings() : EntityColumns.aboveExistingKeys(group, store, source.platform());
                started.createSequence(first.name(), creation);
            } catch (SequenceUnavailableException e) {
                SequenceStore store = started.storeOf(first.name(), first.settings());
                SeqgenMappingException unreadable = SeqgenTable.unreadable(store, first.name(), e,
                        usersOf(store, started, byName.values()), source);
                throw unreadable != null ? unreadable : new SeqgenMappingException(first.where(), e.getMessage(),
                        null, e);
            } catch (SequenceException e) {
                throw new SeqgenMappingException(first.where(), e.getMessage(), null, e);
            }
            if (!seriesOnly) {
                unopened.computeIfAbsent(first.name(), key -> new ArrayList<>()).addAll(group);
            }
        }
        pending.clear();
    }

    /** Where each generator is whose sequence {@code store} serves, in mapping order, each once. */
    private static List<String> usersOf(SequenceStore store, SequenceRegistry registry,
            Iterable<List<Registration>> groups) {
        Set<String> users = new LinkedHashSet<>();
        for (List<Registration> group : groups) {
            Registration first = group.get(0);
            try {
                if (registry.storeOf(first.name(), first.settings()) == store) {
                    group.forEach(registration -> users.add(registration.where()));
                }
            } catch (SequenceException e) {
                // a sequence of a kind the registry has no store for: its own failure, not this one's
            }
        }
        return List.copyOf(users);
    }

    /** Opens every sequence not open yet, taking first blocks within {@code timeout}; a late one throws at the end. */
    synchronized List<String> warmUp(Duration timeout) {
        start();
        List<String> names = new ArrayList<>(unopened.keySet());
        long deadline = System.nanoTime() + timeout.toNanos();
        List<SequenceUnavailableException> late = new ArrayList<>();
        for (String name : names) {
            try {
                open(name, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (SequenceUnavailableException e) {
                late.add(e);
            }
        }
        if (!late.isEmpty()) {
            late.subList(1, late.size()).forEach(late.get(0)::addSuppressed);
            throw late.get(0);
        }
        return names;
    }

    /** Opens a sequence above its tables' values (docs/design.md#adoption) for its generators; warms up if asked. */
    synchronized void open(String name, @Nullable Duration warmUp) {
        start();
        List<Registration> group = unopened.get(name);
        if (group == null) {
            return; // opened by another generator of the same sequence
        }
        Registration first = group.get(0);
        SequenceUnavailableException late = null;
        try {
            SequenceRegistry started = source.registry();
            SequenceStore store = started.storeOf(first.name(), first.settings());
            EntityColumns.aboveExistingRows(group, store, source.platform());
            aboveTables(store, first.name(), first.settings(), null, null);
            if (warmUp != null) {
                try {
                    started.warmUp(first.name(), first.settings(), warmUp);
                } catch (SequenceUnavailableException e) {
                    late = e; // open all the same, unless opening itself failed: then sequence() fails again
                }
            }
            Sequence sequence = started.sequence(first.name(), first.settings());
            group.forEach(registration -> registration.target().accept(sequence));
            unopened.remove(name);
        } catch (SequenceException e) {
            throw new SeqgenMappingException(first.where(), e.getMessage(), null, e);
        }
        if (late != null) {
            throw late;
        }
    }

    /** Unless JDBC access at boot is off, starts and opens {@link SeqgenHibernate#SERIES_WARM_UP_PREFIX}'s series. */
    synchronized void startAtBoot(SessionFactoryImplementor factory) {
        if (!source.jdbcAtBoot()) {
            return;
        }
        start();
        if (source.registryRequired()) {
            return; // the framework warms them up
        }
        source.seriesWarmUp().forEach((name, keys) -> {
            if (!warmUpSeries(name, keys, factory, null)) {
                throw new SequenceConfigurationException(SeqgenHibernate.SERIES_WARM_UP_PREFIX + name,
                        String.join(",", keys), "keys of a sequence this session factory's entities number in"
                                + " series; none numbers sequence '" + name + "' (its entities number "
                                + String.join(", ", registered.keySet()) + ")");
            }
        });
    }

    /** {@link SeqgenHibernate#warmUpSeries}: every key checked before any series opens; no timeout: the sequence's. */
    synchronized boolean warmUpSeries(String name, Collection<String> keys, SessionFactoryImplementor factory,
            @Nullable Duration timeout) {
        start();
        Registration known = registered.get(name);
        if (known == null) {
            return false;
        }
        long deadline = System.nanoTime() + (timeout != null ? timeout : known.settings().acquireTimeout()).toNanos();
        String setting = SeqgenHibernate.SERIES_WARM_UP_PREFIX + name;
        List<SeriesTable> tables = seriesTables.getOrDefault(name, Map.of()).values().stream()
                .filter(table -> table.series() != null).toList();
        if (tables.isEmpty()) {
            throw new SequenceConfigurationException(setting, String.join(",", keys), "no key: the entities number"
                    + " sequence '" + name + "' in one series (no seriesBy, no tenant); SeqgenHibernate.warmUp"
                    + " opens it, as the Spring Boot starter's warm-up does");
        }
        String allowed = "a series key of sequence '" + name + "', its parts " + tables.stream()
                .map(table -> String.join("/", table.series().partNames())).distinct()
                .collect(Collectors.joining(" or ")) + ", joined by '/'";
        JavaType<Object> tenantType = factory.getTenantIdentifierJavaType();
        Map<NumberSeries.Key, SeriesTable> opening = new LinkedHashMap<>();
        for (String key : keys) {
            try {
                SequenceRegistry.seriesRow(name, key);
            } catch (SequenceConfigurationException e) {
                throw warmUpKey(setting, key, allowed + " (" + e.allowed() + ")", e);
            }
            int parts = key.split("/", -1).length;
            SeriesTable table = tables.stream().filter(t -> t.series().partNames().size() == parts).findFirst()
                    .orElseThrow(() -> warmUpKey(setting, key, allowed + ": it has " + parts + " part"
                            + (parts == 1 ? "" : "s"), null));
            try {
                opening.put(table.series().keyOf(key, text -> tenantOf(tenantType, text)), table);
            } catch (IllegalArgumentException e) {
                throw warmUpKey(setting, key, allowed + ": " + e.getMessage(), e);
            }
        }
        List<Sequence> opened = new ArrayList<>();
        opening.forEach((key, table) -> opened.add(openSeries(name, known.settings(), key, table)));
        source.registry().awaitFirstBlocks(opened, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        return true;
    }

    private static Object tenantOf(@Nullable JavaType<Object> type, String text) {
        try {
            return type == null ? text : type.fromString(text);
        } catch (UnsupportedOperationException e) {
            return text;
        }
    }

    private static SequenceConfigurationException warmUpKey(String setting, String key, String allowed,
            @Nullable Exception cause) {
        return (SequenceConfigurationException) new SequenceConfigurationException(setting, "'" + key + "'", allowed)
                .initCause(cause);
    }

    /** A table a sequence's series (or formatted numbers: {@code series} null) number; no table: nothing read. */
    record SeriesTable(@Nullable NumberSeries series, @Nullable String table, @Nullable String column,
            @Nullable NumberPattern pattern, String where) {
    }

    /** Registers a table for the adoption of the sequence's series or formatted numbers. No I/O. */
    synchronized void registerTable(String name, SeriesTable table) {
        seriesTables.computeIfAbsent(name, key -> new LinkedHashMap<>()).put(table.where(), table);
    }

    /** Opens a series not held open: its row made (where its tenant's counters are) and moved above its tables. */
    synchronized Sequence openSeries(String name, SequenceSettings settings, NumberSeries.Key key,
            SeriesTable opening) {
        start();
        Object tenant = key.schemaTenant();
        TenantCounters counters = null;
        try {
            SequenceRegistry started = source.registry();
            counters = tenant == null ? null : tenantCounters(name, settings, started);
            if (counters != null) {
                counters.dropIdleDue();
            }
            SequenceRegistry counting = counters == null ? started : counters.registryOf(tenant, name);
            seriesRegistry = started;
            if (tenant != null) {
                seriesWithTenants.putIfAbsent(name, counters != null);
            }
            counting.createSeries(name, key.text(), settings);
            // Every table of the sequence, not only the opener's: otherwise a second table's adoption in the same
            // transaction would update a row that transaction already locked, and wait for itself.
            aboveTables(counting.storeOf(name, settings), name, settings, key, opening);
            return counting.series(name, key.text(), settings);
        } catch (SequenceException e) {
            RuntimeException unreadable = counters == null ? null
                    : counters.unreadable(tenant, SequenceRegistry.seriesRow(name, key.text()));
            if (unreadable != null) {
                e.addSuppressed(unreadable);
                String table = counters.table();
                String ddl = SeqgenTable.ddl(counters.storeOf(tenant).sqlTable()
                        .orElse(new SequenceStore.SqlTable(table, "postgresql")));
                throw new SeqgenMappingException(opening.where() + ", tenant '" + tenant + "'", "the SYNC values of"
                        + " sequence '" + name + "' count in seqgen's table " + table + " of each tenant's own schema"
                        + " or database (seqgen's table is not qualified by a schema, and each tenant has a schema or"
                        + " database of its own), and the connection of tenant '" + tenant + "' cannot read table "
                        + table + ": " + SeqgenTable.databaseError(unreadable) + "; nothing was inserted", "Create the"
                        + " table in the tenant's schema or database, where the tenant's other tables are created (its"
                        + " Flyway or Liquibase migrations): " + ddl + "; or qualify seqgen.table with a schema every"
                        + " tenant's connection reaches, to count every tenant in that one table (see"
                        + " docs/multi-tenancy.md)", e);
            }
            throw new SeqgenMappingException(opening.where(), e.getMessage(), null, e);
        }
    }

    /** For tests, as {@link #tenantCounters()}. */
    SequenceRegistry registry() {
        return source.registry();
    }

    @Nullable TenantCounters tenantCounters() {
        return tenantCounters;
    }

    /** A series its registry holds open now, or null; no lock, no I/O (docs/design.md#idle-series-release). */
    @Nullable Sequence seriesIfOpen(String name, NumberSeries.Key key) {
        SequenceRegistry started = seriesRegistry;
        Object tenant = key.schemaTenant();
        Boolean withTenants = tenant == null ? Boolean.FALSE : seriesWithTenants.get(name);
        if (started == null || withTenants == null) {
            return null;
        }
        TenantCounters counters = tenantCounters;
        SequenceRegistry counting = !withTenants ? started : counters == null ? null : counters.registryIfMade(tenant);
        return counting == null ? null : counting.seriesIfOpen(name, key.text());
    }

    /** The counters kept with each tenant's data, made once; null if the sequence counts in the shared table. */
    private synchronized @Nullable TenantCounters tenantCounters(String name, SequenceSettings settings,
            SequenceRegistry started) {
        SequenceStore store = started.storeOf(name, settings);
        if (settings.strategy() != Strategy.SYNC || source.tenantConnections() == null
                || !java.sql.Connection.class.equals(store.transactionType())
                || !store.sqlTable().map(table -> table.name().indexOf('.') < 0).orElse(false)) {
            return null;
        }
        if (tenantCounters == null) {
            tenantCounters = new TenantCounters(tenants(), store.sqlTable().orElseThrow().name(), started);
        }
        return tenantCounters;
    }

    @SuppressWarnings("unchecked")
    private MultiTenantConnectionProvider<Object> tenants() {
        return (MultiTenantConnectionProvider<Object>) source.tenantConnections();
    }

    /** Moves a series' row above every table of series with the same keys, or the sequence's above its formats. */
    private void aboveTables(SequenceStore store, String name, SequenceSettings settings,
            NumberSeries.@Nullable Key key, @Nullable SeriesTable opening) {
        if (!store.readsApplicationTables(source.platform())) {
            return;
        }
        Object tenant = key == null ? null : key.schemaTenant();
        List<String> parts = key == null ? List.of() : key.parts();
        long highest = 0;
        Set<String> tables = new LinkedHashSet<>();
        Map<String, SeriesTable> none = opening == null ? Map.of() : Map.of(opening.where(), opening);
        for (SeriesTable user : seriesTables.getOrDefault(name, none).values()) {
            List<SequenceStore.Where> conditions = null;
            if (key == null && user.series() == null && user.pattern() != null) {
                conditions = List.of();
            } else if (key != null && user.series() != null && user.series().sameKeysAs(opening.series())) {
                conditions = user.series().conditionsOf(key.values());
            }
            if (conditions == null || user.table() == null || user.column() == null) {
                continue;
            }
            NumberPattern pattern = user.pattern();
            ToLongFunction<String> counterOf = pattern == null ? null : text -> pattern.counterOf(text, parts);
            long inTable = tenant != null ? highestOfTenant(tenant, user, conditions, counterOf)
                    : (counterOf == null ? store.highestCounter(user.table(), user.column(), settings, conditions)
                            : store.highestFormatted(user.table(), user.column(), conditions, counterOf)).orElse(0);
            highest = Math.max(highest, inTable);
            tables.add(user.table());
        }
        String row = key == null ? name : SequenceRegistry.seriesRow(name, key.text());
        // Read first: the update waits for the row's lock, which this thread's own transaction may hold.
        if (highest > 0 && store.nextValue(row).orElse(Long.MIN_VALUE) <= highest && store.advance(row, highest + 1)) {
            System.getLogger(SeqgenIdGenerator.class.getName()).log(System.Logger.Level.INFO,
                    "seqgen: moved " + (key == null ? "sequence" : "series") + " '" + row + "' forward to "
                            + (highest + 1) + ", above the highest value of its rows already in table "
                            + String.join(", ", tables) + " (" + highest + ")"
                            + (tenant != null ? " of tenant '" + tenant + "'" : ""));
        }
    }

    private long highestOfTenant(Object tenant, SeriesTable user, List<SequenceStore.Where> conditions,
            @Nullable ToLongFunction<String> counterOf) {
        MultiTenantConnectionProvider<Object> tenants = tenants();
        try {
            java.sql.Connection connection = tenants.getConnection(tenant);
            try {
                return ApplicationTables.highestInSeries(connection, user.table(), user.column(), conditions,
                        counterOf);
            } finally {
                tenants.releaseConnection(tenant, connection);
            }
        } catch (java.sql.SQLException e) {
            throw new SeqgenMappingException(user.where(), "could not read the values of column " + user.column()
                    + " of table " + user.table() + " of tenant '" + tenant + "' through the tenant's connection: "
                    + e.getMessage(), "Check that the tenant's schema holds the table, and that its connection may"
                    + " read it", e);
        }
    }

    @Override
    public synchronized void stop() {
        pending.clear();
        eventListeners = null;
        listened = null;
        try {
            if (tenantCounters != null) {
                tenantCounters.close();
                tenantCounters = null;
            }
        } finally {
            source.close();
        }
    }
}
