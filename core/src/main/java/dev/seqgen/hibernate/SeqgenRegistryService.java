package dev.seqgen.hibernate;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import org.hibernate.dialect.Dialect;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.mapping.Column;
import org.hibernate.mapping.Table;
import org.hibernate.mapping.Value;
import org.hibernate.service.Service;
import org.hibernate.service.spi.ServiceRegistryImplementor;
import org.hibernate.service.spi.Stoppable;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.jdbc.AssignedValues;
import dev.seqgen.spi.SequenceStore;
import org.hibernate.cfg.AvailableSettings;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * The Hibernate service that gives every seqgen id generator of a service registry its
 * {@link SequenceRegistry}: the one in {@link SeqgenHibernate#REGISTRY}, or one built over the session
 * factory's {@code DataSource} and closed with the service registry.
 *
 * <pre>
 * Design: why a service
 *
 * A registry seqgen builds must exist before the first insert and be closed when the session factory
 * closes, so that unused values are given back and the refill threads stop. Generators are created while
 * the session factory is built, but see only the (standard) service registry, never the factory. A service
 * of that registry is created on first lookup (by the first seqgen generator, at startup), shared by all
 * generators built from the registry, and stopped when it is destroyed, which the usual bootstraps
 * (Configuration, JPA, Spring) do when the session factory closes. Its stop() runs before the
 * ConnectionProvider's, because the service looked the provider up while starting.
 *
 * Design: no database I/O while Hibernate reads the mappings
 *
 * Generators are created while Hibernate builds its metadata, also where no database is reachable (Spring's
 * AOT processing builds the metamodel with hibernate.boot.allow_jdbc_metadata_access=false and a connection
 * provider that has no connections). So a generator only checks its settings and registers itself here
 * (register, no I/O). start() then does the start-up I/O at once, one step after the other: settings resolved
 * (at register), stores built with the registry if none was given (resolve), columns that refuse assigned values
 * refused, and each sequence's row created, so a broken store or database fails the start-up. A bit-reversed
 * sequence's row is created above the counters of its tables' existing keys there, since its keys say nothing of
 * a row's position later.
 * SeqgenIntegrator calls start() when the session factory has been built (unless JDBC access at boot is off);
 * otherwise the first value does. The sequences themselves open at their first value (open()): the highest value
 * of every column the sequence serves (ids and {@code @SeqgenNumber} numbers) is read once, by the store on its
 * own connection, never in the caller's transaction, and the row moved forward above it (rows may arrive after
 * start-up: Spring Boot's deferred data.sql runs after the session factory is built); only then is the sequence
 * created, so no block below those rows is ever reserved. Every read of rows is a store's; the column check
 * reads the database's metadata through {@code dev.seqgen.jdbc.AssignedValues} on Hibernate's connection, as no
 * SQL is written in this package. start() and open() are synchronized and idempotent; a failed one is retried by
 * the next caller.
 * </pre>
 */
final class SeqgenRegistryService implements Service, Stoppable {

    private static final long serialVersionUID = 1L;

    private final transient Map<String, Object> settings;
    private final transient ServiceRegistryImplementor serviceRegistry;
    /** The registry, resolved on first use; guarded by {@code this}. */
    private transient @Nullable SequenceRegistry registry;
    /** The registry and connection seqgen built, to be closed on stop; guarded by {@code this}. */
    private transient @Nullable SequenceRegistry ownedRegistry;
    private transient @Nullable JdbcSequenceStore ownedStore;
    /** The native-sequence store of seqgen's own registry, when a sequence's kind asks for one; or null. */
    private transient dev.seqgen.jdbc.@Nullable NativeSequenceStore ownedNativeStore;
    /** Generators registered and not started yet; guarded by {@code this}. */
    private final transient List<Registration> pending = new ArrayList<>();
    /** Started generators (rows in place) whose sequences open at their first value, by name; guarded by this. */
    private final transient Map<String, List<Registration>> unopened = new LinkedHashMap<>();
    /**
     * The generators whose overridden or kept attributes were logged: Hibernate may configure a generator more
     * than once, and the line is for a reader, once per start.
     */
    private final transient java.util.Set<String> toldOnce = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Whether the Spanner dialect's export rule was logged; guarded by {@code this}. */
    private transient boolean spannerExportNoted;
    /** Settings read without building a registry, for generators configuring; guarded by {@code this}. */
    private transient @Nullable PlainSettings plain;
    /** The SYNC number values reserved per flush, per session in a transaction. */
    private final transient FlushReservations flushReservations = new FlushReservations();

    private static final System.Logger LOG = System.getLogger(SeqgenIdGenerator.class.getName());

    /**
     * A generator waiting for its sequence.
     *
     * @param name the sequence name
     * @param settings the resolved settings
     * @param table the qualified entity table holding the generated column (an id, a number), or null to skip the
     *     existing-rows and column checks
     * @param column the quoted generated column
     * @param where the entity, property and sequence, for messages
     * @param target receives the sequence
     */
    record Registration(String name, SequenceSettings settings, @Nullable String table, @Nullable String column,
            String where, Consumer<Sequence> target) {

        /**
         * The registration of a generated property, with the qualified table and quoted column Hibernate writes
         * it to (the names as Hibernate names them physically), or none when the property is not one plain column.
         */
        static Registration of(String name, SequenceSettings settings,
                GeneratorCreationContext context, String where, Consumer<Sequence> target) {
            Value value = context.getProperty().getValue();
            Table table = value.getTable();
            if (table == null || value.getColumnSpan() != 1
                    || !(value.getSelectables().get(0) instanceof Column column)) {
                return new Registration(name, settings, null, null, where, target);
            }
            String qualified = (table.getCatalog() == null ? "" : table.getQuotedCatalog() + ".")
                    + (table.getSchema() == null ? "" : table.getQuotedSchema() + ".") + table.getQuotedName();
            return new Registration(name, settings, qualified, column.getQuotedName(), where, target);
        }
    }

    SeqgenRegistryService(Map<String, Object> settings, ServiceRegistryImplementor serviceRegistry) {
        this.settings = settings;
        this.serviceRegistry = serviceRegistry;
    }

    /**
     * Returns the registry for this service registry, building it on first use when none was given.
     *
     * @return the registry
     * @throws SequenceConfigurationException if a setting is wrong, or the registry is required and missing
     * @throws SeqgenMappingException if seqgen must build a registry and the connection provider has no
     *     DataSource, or no connection could be had
     */
    synchronized SequenceRegistry registry() {
        if (registry == null) {
            registry = resolve();
        }
        return registry;
    }

    /**
     * Whether Hibernate may access the database while booting ({@code hibernate.boot.allow_jdbc_metadata_access},
     * default true). When false (offline metadata builds, Spring AOT), start() waits for the first value.
     */
    boolean jdbcAtBoot() {
        Object allow = settings.get(AvailableSettings.ALLOW_METADATA_ON_BOOT);
        return allow == null || Boolean.parseBoolean(allow.toString().trim());
    }

    /**
     * The registry given through {@link SeqgenHibernate#REGISTRY}, or null when seqgen builds its own. No I/O.
     *
     * @throws SequenceConfigurationException if the setting holds something else, or it is required and
     *     missing (checked only when JDBC access at boot is on)
     */
    @Nullable SequenceRegistry givenRegistry() {
        Object given = settings.get(SeqgenHibernate.REGISTRY);
        if (given instanceof SequenceRegistry sequenceRegistry) {
            return sequenceRegistry;
        }
        if (given != null) {
            throw new SequenceConfigurationException(SeqgenHibernate.REGISTRY, given.getClass().getName(),
                    "a dev.seqgen.SequenceRegistry object (a string cannot name one)");
        }
        if (jdbcAtBoot()) {
            requireNoRegistryRequired();
        }
        return null;
    }

    private void requireNoRegistryRequired() {
        Object required = settings.get(SeqgenHibernate.REGISTRY_REQUIRED);
        if (required != null && Boolean.parseBoolean(required.toString().trim())) {
            throw new SequenceConfigurationException(SeqgenHibernate.REGISTRY, null, "a dev.seqgen.SequenceRegistry"
                    + " object, which is required because " + SeqgenHibernate.REGISTRY_REQUIRED + " is true: the"
                    + " framework that sets it (the seqgen Spring Boot starter) did not provide its registry to"
                    + " this session factory. With Spring Boot, give the application a store: a DataSource"
                    + " (spring-boot-starter-jdbc or -data-jpa and spring.datasource.url), a Spanner client, or a"
                    + " dev.seqgen.spi.SequenceStore bean");
        }
    }

    /**
     * Returns seqgen's service of the registry a generator is created in.
     *
     * @throws MappingException naming {@code where} if the service is not registered
     */
    static SeqgenRegistryService of(GeneratorCreationContext context, String where) {
        SeqgenRegistryService service = context.getServiceRegistry().getService(SeqgenRegistryService.class);
        if (service == null) {
            throw new SeqgenMappingException(where, "seqgen's Hibernate service is not registered; seqgen-core"
                    + " registers it through META-INF/services/org.hibernate.service.spi.ServiceContributor",
                    "Keep that file in the application's jar, or call"
                    + " new SeqgenServiceContributor().contribute(standardServiceRegistryBuilder)", null);
        }
        return service;
    }

    /**
     * The settings of a generator's sequence: the registry's (given, or seqgen's own from the plain settings)
     * merged with the annotation, capped at the attribute type's range; SYNC only where the store takes the
     * session's connection. No I/O: Hibernate may be reading the mappings without a database.
     *
     * @throws org.hibernate.MappingException naming {@code where} if SYNC is asked of a store that cannot serve it
     * @throws dev.seqgen.SequenceConfigurationException if a value breaks a rule
     */
    SequenceSettings settingsFor(java.lang.annotation.Annotation annotation, String name, boolean intType,
            String where) {
        SequenceRegistry given = givenRegistry();
        SequenceSettings configured;
        SequenceSettings defaults;
        if (given != null) {
            configured = given.settingsFor(name);
            defaults = given.defaults();
        } else {
            PlainSettings plain = plainSettings();
            defaults = plain.defaults;
            configured = plain.perSequence.getOrDefault(name, defaults);
        }
        SequenceSettings settings;
        try {
            settings = AnnotatedSettings.resolve(annotation, configured, defaults,
                    intType ? SequenceSettings.INT_MAX_VALUE : SequenceSettings.LARGEST_MAX_VALUE);
            String overridden = AnnotatedSettings.overridden(annotation, configured, defaults);
            // Operations may retune a sequence without a rebuild; the code's choice is then not what runs,
            // which whoever reads the annotation should be able to see. And a value configured for the sequence
            // that equals the default leaves the annotation's in force, which nothing else would show. The
            // registry and the plain settings hand out the defaults themselves for a name with no configuration.
            String kept = configured == defaults ? ""
                    : AnnotatedSettings.keptOverConfiguredDefaults(annotation, configured, defaults);
            String told = overridden.isEmpty() ? kept : kept.isEmpty() ? overridden : overridden + "; " + kept;
            if (!told.isEmpty() && toldOnce.add(name + " (" + where + ")")) {
                LOG.log(System.Logger.Level.INFO, "seqgen: sequence '" + name + "' (" + where + "): " + told);
            }
        } catch (SequenceConfigurationException e) {
            if (e.setting().equals("kind")) {
                throw nativeKindCannotServeSync(where, name, e);
            }
            throw e;
        }
        try {
            settings.validateFor(name);
        } catch (SequenceConfigurationException e) {
            throw new SeqgenMappingException(where, e.getMessage(), "Set key-order bit-reversed for sequence '" + name
                    + "' (keyOrder on @SeqgenGenerator, or its key-order property), or remove its skip-range", e);
        }
        if (intType && settings.keyOrder() != dev.seqgen.KeyOrder.SEQUENTIAL) {
            throw new SeqgenMappingException(where, "key-order " + settings.keyOrder().externalName() + " spreads"
                    + " the values over the whole positive long range, which an int attribute cannot hold",
                    "Declare the attribute long or Long, or keep key-order sequential for sequence '" + name + "'",
                    null);
        }
        if (given != null && settings.strategy() == dev.seqgen.Strategy.SYNC) {
            // The store that will serve the sequence, by its kind: SYNC needs one that takes the session's
            // connection, the JDBC table store in the entities' database.
            SequenceStore serving = given.storeOf(name, settings);
            if (serving.kind() == CounterKind.NATIVE_SEQUENCE) {
                throw nativeKindCannotServeSync(where, name, null);
            }
            if (!java.sql.Connection.class.equals(serving.transactionType())) {
                throw new SeqgenMappingException(where, "the SYNC strategy increments the row on the session's"
                        + " JDBC connection, so it needs the JDBC store in the entities' database; the registry"
                        + " uses the " + serving.name() + " store", "Keep the sequence's row in the entities'"
                        + " database with the JDBC store, or give the sequence another strategy (with Spring Boot:"
                        + " seqgen.sequences." + name + ".strategy=async, unique and ordered but not gapless)", null);
            }
        }
        return settings;
    }

    private static SeqgenMappingException nativeKindCannotServeSync(String where, String name,
            @Nullable SequenceConfigurationException cause) {
        return new SeqgenMappingException(where, "the SYNC strategy takes gapless values from a row of seqgen's"
                + " sequence table in the session's transaction, and the sequence would be served by the"
                + " native-sequence store (a database sequence), whose increments cannot be rolled back",
                "Count this sequence in the table: seqgen.sequences." + name + ".kind=table (a Spring Boot property,"
                + " or a Hibernate setting when seqgen builds its registry). Spring Boot and plain Hibernate then"
                + " give the registry a table store beside the native-sequence store, so ids on database sequences"
                + " and gapless numbers share one application; a registry built by hand needs one:"
                + " SequenceRegistry.Builder.store(a JdbcSequenceStore)", cause);
    }

    /**
     * The table of the sequence rows that belongs in Hibernate's schema ({@link SeqgenHibernate#SCHEMA_EXPORT}),
     * or null: none when the rows are not in a JDBC store's table, the export is off, or Hibernate's dialect is a
     * Cloud Spanner one. Hibernate's Spanner dialects write a table's primary key inside its column list, which
     * Spanner rejects, so with {@code ddl-auto=create} Hibernate would drop the table seqgen's own script created
     * and fail to make it again: on Spanner seqgen keeps its table out of Hibernate's schema, and says so once.
     * No I/O.
     *
     * @param dialect the dialect Hibernate builds the schema for
     */
    synchronized @Nullable String exportedTable(@Nullable Dialect dialect) {
        Object export = settings.get(SeqgenHibernate.SCHEMA_EXPORT);
        if (export != null && !Boolean.parseBoolean(export.toString().trim())) {
            return null;
        }
        SequenceRegistry given = givenRegistry();
        String table = given != null ? given.store(CounterKind.TABLE).flatMap(SequenceStore::sqlTable)
                .map(SequenceStore.SqlTable::name).orElse(null) : plainSettings().table;
        if (table != null && dialect != null && dialect.getClass().getSimpleName().startsWith("Spanner")) {
            if (!spannerExportNoted) {
                spannerExportNoted = true;
                LOG.log(System.Logger.Level.INFO, "seqgen: table " + table + " is left out of Hibernate's schema:"
                        + " Hibernate's " + dialect.getClass().getSimpleName() + " writes a primary key Cloud"
                        + " Spanner does not accept, so ddl-auto would drop the table and fail to create it again."
                        + " seqgen creates it (seqgen.jdbc.initialize-schema=always with Spring Boot, or the"
                        + " store's createTable), or your migrations do, from the script dev/seqgen/schema/spanner.sql"
                        + " of seqgen-spring-boot-starter");
            }
            return null;
        }
        return table;
    }

    /** @return the per-flush reservations of SYNC numbers; not synchronized, it is safe for concurrent sessions */
    FlushReservations flushReservations() {
        return flushReservations;
    }

    /** The settings seqgen's own registry would have, read without I/O. */
    synchronized PlainSettings plainSettings() {
        if (plain == null) {
            plain = PlainSettings.from(settings);
        }
        return plain;
    }

    /**
     * Registers a generator; its sequence is created by {@link #start()}. No I/O.
     *
     * @throws SequenceConfigurationException if another generator registered the same sequence with other
     *     settings, or the given registry already has it with other settings
     */
    synchronized void register(Registration registration) {
        for (Registration other : pending) {
            if (other.name().equals(registration.name())) {
                SequenceRegistry.requireSameSettings(registration.name(), other.settings(), registration.settings());
                break;
            }
        }
        if (registry != null) {
            registry.requireSettings(registration.name(), registration.settings());
        }
        pending.add(registration);
    }

    /** @return whether generators wait for {@link #start()} */
    synchronized boolean hasPending() {
        return !pending.isEmpty();
    }

    /**
     * Does the start-up I/O of all registered generators: builds the registry if needed and puts each sequence
     * row above the highest id of the tables it serves, so that a broken store or a conflicting setting fails
     * here. The sequences themselves open at their first value ({@link #open}). Idempotent.
     *
     * @throws org.hibernate.MappingException naming the entity and sequence if a row could not be created
     */
    synchronized void start() {
        if (pending.isEmpty()) {
            return;
        }
        SequenceRegistry started = registry();
        Map<String, List<Registration>> byName = new LinkedHashMap<>();
        for (Registration registration : pending) {
            byName.computeIfAbsent(registration.name(), key -> new ArrayList<>()).add(registration);
        }
        requireAssignableColumns(pending);
        for (List<Registration> group : byName.values()) {
            Registration first = group.get(0);
            try {
                // Another session factory over the same registry may have created it since register().
                started.requireSettings(first.name(), first.settings());
                // The row (and the table, where the store creates it) exists from start-up on, so that a
                // store that cannot create it fails here, and no DDL runs later inside a caller's transaction.
                // Existing ids are adopted once, when the sequence opens at its first value (see open): rows
                // may still arrive between here and then, and the row is moved forward, never back. Bit-reversed
                // keys are the exception: they are adopted only by a row's creation (startAboveExistingKeys),
                // which is here.
                SequenceStore store = started.storeOf(first.name(), first.settings());
                if (first.settings().keyOrder() != dev.seqgen.KeyOrder.SEQUENTIAL) {
                    startAboveExistingKeys(group, store);
                }
                started.createSequence(first.name(), first.settings());
            } catch (dev.seqgen.SequenceUnavailableException e) {
                String unreadable = unreadableTable(started.storeOf(first.name(), first.settings()), e);
                throw new SeqgenMappingException(first.where(), unreadable != null ? unreadable : e.getMessage(), null,
                        e);
            } catch (dev.seqgen.SequenceException e) {
                throw new SeqgenMappingException(first.where(), e.getMessage(), null, e);
            }
            unopened.computeIfAbsent(first.name(), key -> new ArrayList<>()).addAll(group);
        }
        pending.clear();
    }

    /**
     * What the JDBC store's table looks like when a row could not be created: null when the table can be read (the
     * creation's own error says it all), otherwise what reading it said, with what creates a missing table. The
     * reading's error is added to the creation's as suppressed, so both reach the log.
     */
    private static @Nullable String unreadableTable(SequenceStore store, RuntimeException creation) {
        SequenceStore.SqlTable table = store.sqlTable().orElse(null);
        if (table == null) {
            return null;
        }
        try {
            store.nextValue("seqgen-table-probe");
            return null;
        } catch (RuntimeException unreadable) {
            creation.addSuppressed(unreadable);
            String script = "dev/seqgen/schema/" + table.platform() + ".sql";
            return "seqgen's sequence table " + table.name() + " could not be read in the " + store.name()
                    + " database: " + unreadable.getMessage() + " (creating the row failed with: "
                    + creation.getMessage() + "). If the table does not exist, create it: with Spring Boot,"
                    + " seqgen.jdbc.initialize-schema=always runs the script " + script + " of seqgen-spring-boot-"
                    + "starter at start-up (or copy it into your Flyway or Liquibase migrations)"
                    + (table.platform().equals("spanner") ? " (Hibernate's Spanner dialects cannot create it, so it"
                            + " is not part of Hibernate's schema there)"
                            : "; or let Hibernate create it, since it is part of Hibernate's schema"
                            + " (hibernate.hbm2ddl.auto, spring.jpa.hibernate.ddl-auto)");
        }
    }

    /**
     * Opens a sequence at its first value and hands it to every generator that uses it. Before that, and only
     * here, it adopts the rows its tables already hold: it reads the highest ids (or numbers) through the store
     * on its own connection (never in the caller's transaction), and moves the row forward above them. Here
     * rather than at start-up, because rows may arrive in between: Spring Boot's {@code data.sql} with
     * {@code spring.jpa.defer-datasource-initialization=true} inserts its rows after the session factory is
     * built, and {@code hbm2ddl} creates the tables after the generators. The sequence (and an ASYNC_BATCH
     * sequence's first background block) only exists from here on, so no value below those rows is ever in hand.
     *
     * @param name the sequence name
     * @throws org.hibernate.MappingException naming the entity and sequence if the sequence could not be opened
     */
    synchronized void open(String name) {
        open(name, null);
    }

    /**
     * Opens every sequence of the registered generators that is not open yet, as its first value would (its rows
     * adopted first), each taking its first block through
     * {@link SequenceRegistry#warmUp(String, SequenceSettings, Duration)}: what an application does before it
     * reports itself ready.
     *
     * @param timeout the longest each sequence's first block is waited for
     * @return the names of the sequences opened
     * @throws SequenceUnavailableException naming a sequence whose first block did not come in time (it
     *     is open, its reservation goes on in the background); the others are opened all the same
     * @throws org.hibernate.MappingException naming the entity and sequence if a sequence could not be opened
     */
    synchronized List<String> warmUp(Duration timeout) {
        start();
        List<String> names = new ArrayList<>(unopened.keySet());
        SequenceUnavailableException late = null;
        for (String name : names) {
            try {
                open(name, timeout);
            } catch (SequenceUnavailableException e) {
                if (late == null) {
                    late = e;
                } else {
                    late.addSuppressed(e);
                }
            }
        }
        if (late != null) {
            throw late;
        }
        return names;
    }

    /** {@link #open(String)}, taking the first block within {@code warmUp} when it is not null. */
    private void open(String name, @Nullable Duration warmUp) {
        start();
        List<Registration> group = unopened.get(name);
        if (group == null) {
            return; // opened by another generator of the same sequence
        }
        Registration first = group.get(0);
        SequenceUnavailableException late = null;
        try {
            SequenceRegistry started = registry();
            startAboveExistingRows(group, started.storeOf(first.name(), first.settings()));
            Sequence sequence;
            if (warmUp == null) {
                sequence = started.sequence(first.name(), first.settings());
            } else {
                try {
                    sequence = started.warmUp(first.name(), first.settings(), warmUp);
                } catch (SequenceUnavailableException e) {
                    // Open all the same unless opening itself failed (then sequence() fails again, and says why).
                    late = e;
                    sequence = started.sequence(first.name(), first.settings());
                }
            }
            for (Registration registration : group) {
                registration.target().accept(sequence);
            }
            unopened.remove(name);
        } catch (dev.seqgen.SequenceException e) {
            throw new SeqgenMappingException(first.where(), e.getMessage(), null, e);
        }
        if (late != null) {
            throw late;
        }
    }

    /**
     * Puts the row of the group's sequence (created by {@link #start()}) above the highest id of all its tables:
     * a row below is moved forward by the store's guarded update, never backwards, so JVMs starting at once
     * agree. A table that cannot be read fails the first value, with
     * the store's error as its cause (see {@link #highest}); a store whose rows are elsewhere reads nothing.
     */
    private void startAboveExistingRows(List<Registration> group, SequenceStore store) {
        String name = group.get(0).name();
        SequenceSettings settings = group.get(0).settings();
        if (settings.keyOrder() != dev.seqgen.KeyOrder.SEQUENTIAL) {
            startAboveExistingKeys(group, store);
            return;
        }
        Highest existing = highest(group, store, true);
        long highest = existing.counter();
        String highestTable = existing.table();
        if (highest <= 0 || highest == Long.MAX_VALUE) {
            return;
        }
        // The row exists: start() created it, before any first value. Rows are created there only.
        boolean moved;
        try {
            moved = store.advance(name, highest + 1);
        } catch (UnsupportedOperationException e) {
            LOG.log(System.Logger.Level.WARNING, "seqgen: the " + store.name() + " store cannot move the row of"
                    + " sequence '" + name + "' forward; table " + highestTable + " holds values up to " + highest);
            return;
        }
        if (moved) {
            LOG.log(System.Logger.Level.INFO, "seqgen: moved sequence '" + name + "' forward to " + (highest + 1)
                    + ", above the highest value already in table " + highestTable + " (" + highest + ")");
        }
    }

    /**
     * Adoption for a sequence whose keys are images of its counters ({@code key-order bit-reversed}). The maximum
     * key says nothing of the counters used (bit-reversed keys reach 2<sup>62</sup> at the first value), so:
     * with the sequence's row there, seqgen's own counter is the truth and nothing is read. Without it (the table
     * was filled by another program, by Spanner's own bit-reversed sequence, or the row was lost), every existing
     * key outside the {@code skip-range} is mapped back to its counter and the row starts above the highest of
     * them, so no new key can equal an existing one. That read goes over the keys once, when the session factory
     * starts and the sequence has no row yet, never again; keys inside the skip range are left to the range.
     */
    private void startAboveExistingKeys(List<Registration> group, SequenceStore store) {
        String name = group.get(0).name();
        SequenceSettings settings = group.get(0).settings();
        java.util.OptionalLong row;
        try {
            row = store.nextValue(name);
        } catch (dev.seqgen.spi.SequenceStoreException e) {
            row = java.util.OptionalLong.empty(); // no table yet: no row either; createSequence says what is wrong
        }
        if (row.isPresent()) {
            return;
        }
        Highest existing = highest(group, store, false);
        long highest = existing.counter();
        String highestTable = existing.table();
        if (highest <= 0) {
            return;
        }
        if (highest >= settings.maxValue()) {
            throw new SeqgenMappingException(group.get(0).where(), "table " + highestTable + " already holds a key"
                    + " whose counter is " + highest + ", at the maximum value of sequence '" + name + "' ("
                    + settings.maxValue() + "); with key-order bit-reversed every counter up to it may be taken",
                    "Set seqgen.sequences." + name + ".skip-range to a range holding the table's existing keys, or"
                    + " give the entity a new table", null);
        }
        store.createSequence(name, settings.toBuilder().initialValue(Math.max(settings.initialValue(), highest + 1))
                .build());
        LOG.log(highest >= 1L << 62 ? System.Logger.Level.WARNING : System.Logger.Level.INFO, "seqgen: sequence '"
                + name + "' starts at counter " + (highest + 1) + ", above the counters of the keys already in"
                + " table " + highestTable + (highest >= 1L << 62 ? "; that leaves less than half of the counters:"
                + " if those keys came from another program, set seqgen.sequences." + name + ".skip-range to a"
                + " range holding them instead" : ""));
    }

    /** The highest counter the tables of a group hold, and the table holding it (null if all are empty). */
    private record Highest(long counter, @Nullable String table) {
    }

    /**
     * Reads, through the store, the highest counter the group's tables hold. The store reads on its own connection,
     * never in the caller's transaction: on Cloud Spanner that read would otherwise begin the caller's read-write
     * transaction and widen what it locks and what can abort it. A store whose rows are not in the application's
     * database reads nothing.
     *
     * <p>A table the store cannot read: at the first value ({@code atFirstValue}) the schema is in place (hbm2ddl,
     * Flyway and {@code data.sql} have run), so the error is the caller's, with its cause: taking it as an empty
     * table would start the sequence at its initial value over rows that may hold it. At start-up (a bit-reversed
     * sequence's row is made there) the table may not exist yet, since hbm2ddl creates it later; it then counts as
     * empty, with a warning that names the table and what the store said.
     */
    private static Highest highest(List<Registration> group, SequenceStore store, boolean atFirstValue) {
        String name = group.get(0).name();
        long highest = 0;
        @Nullable String highestTable = null;
        // One read per column: Hibernate may configure a generator of the same attribute more than once.
        java.util.Set<String> read = new java.util.HashSet<>();
        for (Registration registration : group) {
            if (registration.table() == null || !read.add(registration.table() + "." + registration.column())) {
                continue;
            }
            long counter;
            try {
                counter = store.highestCounter(registration.table(), registration.column(), registration.settings())
                        .orElse(0);
            } catch (dev.seqgen.spi.SequenceStoreException e) {
                if (atFirstValue) {
                    throw new SeqgenMappingException(registration.where(), "could not read table "
                            + registration.table() + " to start sequence '" + name + "' above the values it already"
                            + " holds: " + e.getMessage(), "Let the application's database user read the table"
                            + " (SELECT), or create the table before the first value is taken", e);
                }
                LOG.log(System.Logger.Level.WARNING, "seqgen: could not read table " + registration.table()
                        + " for sequence '" + name + "' at start-up (counted as empty: it may not exist yet): "
                        + e.getMessage());
                counter = 0;
            }
            if (counter > highest) {
                highest = counter;
                highestTable = registration.table();
            }
        }
        return new Highest(highest, highestTable);
    }

    /**
     * Fails the start-up when a column seqgen assigns refuses assigned values (an identity column declared
     * {@code GENERATED ALWAYS AS IDENTITY}, a computed column), naming entity, table, column, database and the
     * change, rather than letting every insert fail. One read of the information schema per column, here at
     * start-up only; a column that cannot be read (its table not created yet) is taken as it comes.
     */
    private void requireAssignableColumns(List<Registration> registrations) {
        ConnectionProvider provider = serviceRegistry.getService(ConnectionProvider.class);
        if (provider == null) {
            return;
        }
        Map<String, Registration> columns = new LinkedHashMap<>();
        for (Registration registration : registrations) {
            if (registration.table() != null && registration.column() != null) {
                columns.putIfAbsent(registration.table() + "." + registration.column(), registration);
            }
        }
        if (columns.isEmpty()) {
            return;
        }
        Connection connection;
        try {
            connection = provider.getConnection();
        } catch (SQLException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "seqgen: no connection to check the generated columns: " + e.getMessage());
            return;
        }
        try {
            for (Registration registration : columns.values()) {
                AssignedValues.Refusal refusal;
                try {
                    refusal = AssignedValues.refusal(connection, registration.table(), registration.column())
                            .orElse(null);
                } catch (SQLException e) {
                    LOG.log(System.Logger.Level.DEBUG, "seqgen: could not read column " + registration.column()
                            + " of table " + registration.table() + ": " + e.getMessage());
                    continue;
                }
                if (refusal != null) {
                    ColumnRefusesAssignedValuesException refused = new ColumnRefusesAssignedValuesException(
                            registration.name(), registration.where(), registration.table(), registration.column(),
                            refusal.database(), refusal.reason(), refusal.fix());
                    throw new org.hibernate.MappingException(refused.getMessage(), refused);
                }
            }
        } finally {
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            } catch (SQLException ignored) {
                // only a read was made
            }
            try {
                provider.closeConnection(connection);
            } catch (SQLException ignored) {
                // the pool's business
            }
        }
    }

    private SequenceRegistry resolve() {
        SequenceRegistry given = givenRegistry();
        if (given != null) {
            return given;
        }
        requireNoRegistryRequired();
        PlainSettings plain = plainSettings();
        // A dedicated connection: inserting threads hold their session's pooled connection while the generator
        // runs, so reservations must never wait for the same pool (see JdbcSequenceStore).
        JdbcSequenceStore.Builder storeBuilder = JdbcSequenceStore.builder(dataSource()).dedicatedConnection(true)
                .createTable(plain.createTable);
        try {
            storeBuilder.table(plain.table);
        } catch (SequenceConfigurationException e) {
            throw new SequenceConfigurationException(SeqgenHibernate.TABLE, e.value(), e.allowed());
        }
        ownedStore = storeBuilder.build();
        try {
            JdbcSequenceStore store = ownedStore;
            SequenceRegistry.Builder builder = SequenceRegistry.builder(store).defaults(plain.defaults);
            // A native-sequence store beside the table store only when a sequence is of that kind: it keeps a
            // dedicated connection of its own.
            boolean nativeKind = java.util.stream.Stream.concat(java.util.stream.Stream.of(plain.defaults),
                    plain.perSequence.values().stream()).anyMatch(s -> s.kind() == CounterKind.NATIVE_SEQUENCE);
            if (nativeKind) {
                dev.seqgen.jdbc.NativeSequenceStore.Builder nativeBuilder = dev.seqgen.jdbc.NativeSequenceStore
                        .builder(dataSource()).dedicatedConnection(true);
                if (plain.sequencePrefix != null) {
                    try {
                        nativeBuilder.prefix(plain.sequencePrefix);
                    } catch (SequenceConfigurationException e) {
                        throw new SequenceConfigurationException(SeqgenHibernate.SEQUENCE_PREFIX, e.value(),
                                e.allowed());
                    }
                }
                ownedNativeStore = nativeBuilder.build();
                builder.store(ownedNativeStore);
            }
            plain.perSequence.forEach(builder::sequence);
            ownedRegistry = builder.build();
            return ownedRegistry;
        } catch (RuntimeException e) {
            closeOwnedStores();
            throw e;
        }
    }

    private DataSource dataSource() {
        ConnectionProvider provider = serviceRegistry.getService(ConnectionProvider.class);
        if (provider == null || !provider.isUnwrappableAs(DataSource.class)) {
            throw new SeqgenMappingException("seqgen's Hibernate integration", "seqgen reserves values in"
                    + " transactions of its own and needs a DataSource for them, but the connection provider "
                    + (provider == null ? "(none: multi-tenant?)" : provider.getClass().getName())
                    + " does not expose one", "Give Hibernate a DataSource (jakarta.persistence.nonJtaDataSource or"
                    + " hibernate.connection.datasource), or set " + SeqgenHibernate.REGISTRY
                    + " to a SequenceRegistry built over one", null);
        }
        return provider.unwrap(DataSource.class);
    }

    /** Closes the registry seqgen built (giving back unused values), then returns its connection. */
    @Override
    public synchronized void stop() {
        pending.clear();
        if (ownedRegistry != null) {
            try {
                ownedRegistry.close();
            } finally {
                closeOwnedStores();
                ownedRegistry = null;
                registry = null;
            }
        }
    }

    private void closeOwnedStores() {
        try {
            if (ownedNativeStore != null) {
                ownedNativeStore.close();
            }
        } finally {
            ownedNativeStore = null;
            if (ownedStore != null) {
                ownedStore.close();
            }
            ownedStore = null;
        }
    }
}
