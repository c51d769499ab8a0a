package dev.seqgen.hibernate;

import dev.seqgen.CounterKind;
import dev.seqgen.KeyOrder;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spi.SequenceStore;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.mapping.Column;
import org.hibernate.mapping.Table;
import org.hibernate.mapping.Value;
import java.lang.annotation.Annotation;
import java.sql.Connection;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** Resolves a generator's settings at mapping, without I/O, and checks them against its attribute and store. */
final class GeneratorSettings {

    private final RegistrySource source;
    /** Hibernate may configure a generator more than once: its overridden attributes are logged once. */
    private final Set<String> toldOnce = ConcurrentHashMap.newKeySet();

    GeneratorSettings(RegistrySource source) {
        this.source = source;
    }

    /** The sequence's configured settings merged with the annotation; throws naming {@code where} if unfit. */
    SequenceSettings resolve(Annotation annotation, String name, boolean intType, String where) {
        SequenceRegistry given = source.givenRegistry();
        PlainSettings plain = given == null ? source.plainSettings() : null;
        SequenceSettings defaults = given != null ? given.defaults() : plain.defaults;
        SequenceSettings configured = given != null ? given.settingsFor(name)
                : plain.perSequence.getOrDefault(name, defaults);
        Map<Setting, String> sources = given != null ? given.sourcesFor(name)
                : plain.sources.getOrDefault(name, Map.of());
        SequenceSettings settings;
        try {
            settings = AnnotatedSettings.resolve(annotation, configured, defaults, sources,
                    intType ? SequenceSettings.INT_MAX_VALUE : SequenceSettings.LARGEST_MAX_VALUE);
            String told = AnnotatedSettings.overridden(annotation, configured, defaults, sources);
            if (!told.isEmpty() && toldOnce.add(name + " (" + where + ")")) {
                System.getLogger(GeneratorSettings.class.getName()).log(System.Logger.Level.INFO,
                        "seqgen: sequence '" + name + "' (" + where + "): " + told);
            }
        } catch (SequenceConfigurationException e) {
            throw e.setting().equals("kind") ? nativeKindCannotServeSync(where, name, e) : e;
        }
        try {
            settings.validateFor(name);
        } catch (SequenceConfigurationException e) {
            throw new SeqgenMappingException(where, e.getMessage(), "Set key-order bit-reversed for sequence '" + name
                    + "' (keyOrder on @SeqgenGenerator, or its key-order property), or remove its skip-range", e);
        }
        if (AnnotatedSettings.attribute(annotation, Setting.STRATEGY) == Strategy.SYNC
                && settings.strategy() != Strategy.SYNC && !settings.allowWeakerStrategy()) {
            String property = "seqgen.sequences." + name + ".";
            throw new SeqgenMappingException(where, "@" + annotation.annotationType().getSimpleName()
                    + " declares strategy SYNC (gapless numbers), and the configuration of sequence '" + name
                    + "' sets strategy=" + settings.strategy().externalName() + " (" + property + "strategy), which"
                    + " would give up the gapless numbers", "Remove " + property + "strategy (a Spring Boot property,"
                    + " or the Hibernate setting of that name) to keep the code's SYNC; or, if giving up gapless"
                    + " numbers is meant, set " + property + "allow-weaker-strategy=true"
                    + " (SequenceSettings.Builder.allowWeakerStrategy for a registry built in code)", null);
        }
        if (intType && settings.keyOrder() != KeyOrder.SEQUENTIAL) {
            throw new SeqgenMappingException(where, "key-order " + settings.keyOrder().externalName() + " spreads"
                    + " the values over the whole positive long range, which an int attribute cannot hold", "Declare"
                    + " the attribute long or Long, or keep key-order sequential for sequence '" + name + "'", null);
        }
        SeqgenNumber sharedByTenants = source.tenantConnections() != null && annotation instanceof SeqgenNumber number
                && !number.perTenant() ? number : null;
        if (given != null && settings.strategy() == Strategy.SYNC) {
            SequenceStore serving = given.storeOf(name, settings);
            if (serving.kind() == CounterKind.NATIVE_SEQUENCE) {
                throw nativeKindCannotServeSync(where, name, null);
            }
            if (!Connection.class.equals(serving.transactionType())) {
                throw new SeqgenMappingException(where, "the SYNC strategy increments the row on the session's"
                        + " JDBC connection, so it needs the JDBC store in the entities' database; the registry"
                        + " uses the " + serving.name() + " store", "Keep the sequence's row in the entities'"
                        + " database with the JDBC store, or give the sequence another strategy (with Spring Boot:"
                        + " seqgen.sequences." + name + ".strategy=async, unique and ordered but not gapless)", null);
            }
            String table = serving.sqlTable().map(SequenceStore.SqlTable::name).orElse(null);
            if (sharedByTenants != null && table != null && table.indexOf('.') < 0) {
                throw new SeqgenMappingException(where, "@SeqgenNumber(perTenant = false) numbers all tenants in"
                        + " one series, whose SYNC increment runs on the session's connection, which is the tenant's"
                        + " (each tenant has a schema or database of its own); seqgen's table " + table + " is not"
                        + " qualified by a schema, so each tenant's connection would find a table of its own",
                        "Qualify the table with the schema that holds it, reachable from every tenant's connection"
                        + " (seqgen.table=public." + table + " with Spring Boot or plain Hibernate,"
                        + " JdbcSequenceStore.Builder.table for a registry built in code), or number per tenant"
                        + " (remove perTenant = false); see docs/multi-tenancy.md", null);
            }
        }
        if (sharedByTenants != null && sharedByTenants.initialValue() == SeqgenGenerator.UNSET
                && !sources.containsKey(Setting.INITIAL_VALUE)
                && configured.initialValue() == defaults.initialValue()) {
            throw new SeqgenMappingException(where, "@SeqgenNumber(perTenant = false) numbers all tenants in one"
                    + " series, and each tenant has a schema or database of its own (a MultiTenantConnectionProvider):"
                    + " the numbers already in the tenants' tables are in as many schemas or databases as there are"
                    + " tenants, which seqgen learns of only at run time, so it cannot start the series above them;"
                    + " and no initial value is set for sequence '" + name + "'", "Set the initial value above the"
                    + " highest number of any tenant's table (1 if they hold none): @SeqgenNumber(perTenant = false,"
                    + " initialValue = ...), or seqgen.sequences." + name + ".initial-value; the series then starts"
                    + " there and reads no tenant's table. Or number per tenant (remove perTenant = false), each"
                    + " tenant's series above its own numbers; see docs/multi-tenancy.md", null);
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

    /** A generator awaiting its sequence; a null table and column skip the existing-rows and column checks. */
    record Registration(String name, SequenceSettings settings, @Nullable String table, @Nullable String column,
            String where, Consumer<Sequence> target, boolean seriesOnly) {

        Registration inSeriesOnly() {
            return new Registration(name, settings, table, column, where, target, true);
        }

        Registration withoutTable() {
            return new Registration(name, settings, null, null, where, target, seriesOnly);
        }

        /** A generated property's, with the physical table and column, or none when it is not one plain column. */
        static Registration of(String name, SequenceSettings settings,
                GeneratorCreationContext context, String where, Consumer<Sequence> target) {
            Value value = context.getProperty().getValue();
            Table table = value.getTable();
            String column = table == null ? null : quotedColumn(value);
            String qualified = column == null ? null
                    : (table.getCatalog() == null ? "" : table.getQuotedCatalog() + ".")
                    + (table.getSchema() == null ? "" : table.getQuotedSchema() + ".") + table.getQuotedName();
            return new Registration(name, settings, qualified, column, where, target, false);
        }
    }

    /** An attribute's one column, quoted as Hibernate writes it, or null when it is not one plain column. */
    static @Nullable String quotedColumn(Value value) {
        return value.getColumnSpan() == 1 && value.getSelectables().get(0) instanceof Column column
                ? column.getQuotedName() : null;
    }

    /** Whether seqgen creates its tables ({@link SeqgenHibernate#SCHEMA_INITIALIZE}: always or never). */
    static boolean initializes(@Nullable Object value) {
        String text = value == null ? "always" : value.toString().trim();
        if (!text.equalsIgnoreCase("always") && !text.equalsIgnoreCase("never")) {
            throw new SequenceConfigurationException(SeqgenHibernate.SCHEMA_INITIALIZE, value, "always or never");
        }
        return text.equalsIgnoreCase("always");
    }

    /** The {@code seqgen.*} Hibernate settings of a registry seqgen builds; a bad key or value fails naming it. */
    static final class PlainSettings {

        final String table;
        /** Null for the native-sequence store's default. */
        final @Nullable String sequencePrefix;
        final boolean createTable;
        final SequenceSettings defaults;
        /** Sorted, so that errors and registries come out the same on every start. */
        final Map<String, SequenceSettings> perSequence;
        /** Per sequence, the key of each value set ({@code seqgen.sequences.orders.block-size}). */
        final Map<String, Map<Setting, String>> sources;
        /** Null for the registry's default. */
        final @Nullable Duration seriesIdleTimeout;

        static PlainSettings from(Map<String, Object> settings) {
            return new PlainSettings(settings);
        }

        private PlainSettings(Map<String, Object> settings) {
            this.table = Objects.toString(settings.get(SeqgenHibernate.TABLE), JdbcSequenceStore.DEFAULT_TABLE).trim();
            this.createTable = initializes(settings.get(SeqgenHibernate.SCHEMA_INITIALIZE));
            Map<String, Object> configuredDefaults = new TreeMap<>();
            Map<String, Map<String, Object>> sequences = new TreeMap<>();
            for (Map.Entry<String, Object> setting : new TreeMap<>(settings).entrySet()) {
                String key = setting.getKey();
                if (key.startsWith(SeqgenHibernate.DEFAULTS_PREFIX)) {
                    configuredDefaults.put(key.substring(SeqgenHibernate.DEFAULTS_PREFIX.length()), setting.getValue());
                } else if (key.startsWith(SeqgenHibernate.SEQUENCES_PREFIX)) {
                    String rest = key.substring(SeqgenHibernate.SEQUENCES_PREFIX.length());
                    int dot = rest.indexOf('.');
                    if (dot <= 0) {
                        throw new SequenceConfigurationException(key, setting.getValue(),
                                SeqgenHibernate.SEQUENCES_PREFIX + "<name>.<key> with a key of: " + Setting.keys());
                    }
                    sequences.computeIfAbsent(rest.substring(0, dot), name -> new TreeMap<>())
                            .put(rest.substring(dot + 1), setting.getValue());
                }
            }
            this.defaults = build(SequenceSettings.builder(), SeqgenHibernate.DEFAULTS_PREFIX, configuredDefaults,
                    new EnumMap<>(Setting.class));
            this.perSequence = new TreeMap<>();
            this.sources = new TreeMap<>();
            for (Map.Entry<String, Map<String, Object>> sequence : sequences.entrySet()) {
                String prefix = SeqgenHibernate.SEQUENCES_PREFIX + sequence.getKey() + ".";
                Map<Setting, String> set = new EnumMap<>(Setting.class);
                perSequence.put(sequence.getKey(), build(defaults.toBuilder(), prefix, sequence.getValue(), set));
                sources.put(sequence.getKey(), Collections.unmodifiableMap(set));
            }
            Object sequencePrefix = settings.get(SeqgenHibernate.SEQUENCE_PREFIX);
            this.sequencePrefix = sequencePrefix == null ? null : sequencePrefix.toString().trim();
            this.seriesIdleTimeout = seriesIdleTimeout(settings.get(SeqgenHibernate.SERIES_IDLE_TIMEOUT));
        }

        /** {@link SeqgenHibernate#SERIES_IDLE_TIMEOUT}: a Duration or its text, 0 or more; null if unset. */
        private static @Nullable Duration seriesIdleTimeout(@Nullable Object value) {
            try {
                Duration timeout = value == null || value instanceof Duration ? (Duration) value
                        : Setting.duration(value.toString().trim());
                if (timeout == null || !timeout.isNegative()) {
                    return timeout;
                }
            } catch (RuntimeException e) {
                // refused below
            }
            throw new SequenceConfigurationException(SeqgenHibernate.SERIES_IDLE_TIMEOUT, value,
                    "a duration of 0 (never released) or more, as 10m or PT10M");
        }

        /** Applies the values set under {@code prefix}, recording each key in {@code set}; errors name the key. */
        private static SequenceSettings build(SequenceSettings.Builder builder, String prefix,
                Map<String, Object> values, Map<Setting, String> set) {
            try {
                values.forEach((key, value) -> {
                    Setting setting = Setting.find(key).orElseThrow(() -> new SequenceConfigurationException(
                            prefix + key, value, "a key of: " + Setting.keys()));
                    setting.apply(builder, value);
                    set.put(setting, prefix + key);
                });
                return builder.build();
            } catch (SequenceConfigurationException e) {
                throw e.setting().startsWith(prefix) ? e : (SequenceConfigurationException)
                        new SequenceConfigurationException(prefix + e.setting(), e.value(), e.allowed()).initCause(e);
            }
        }
    }
}
