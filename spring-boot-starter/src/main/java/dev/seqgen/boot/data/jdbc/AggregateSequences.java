package dev.seqgen.boot.data.jdbc;

import dev.seqgen.CounterKind;
import dev.seqgen.SeqgenValue;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.spi.Identifiers;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.spi.SequenceStoreException;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.springframework.data.mapping.PropertyHandler;
import org.springframework.data.relational.core.dialect.Dialect;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.sql.IdentifierProcessing;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

/**
 * The {@link SeqgenValue} properties of entities, resolved and checked once per type, and their sequences, opened
 * above the values their tables hold (docs/design.md#adoption). Openings hold this object's lock; reads do not.
 */
final class AggregateSequences {

    private static final System.Logger LOG = System.getLogger(AggregateSequences.class.getName());

    private final SequenceRegistry registry;
    private final RelationalMappingContext mappingContext;
    private final IdentifierProcessing identifiers;
    private final Map<Class<?>, List<ValueProperty>> byType = new ConcurrentHashMap<>();
    /** Per sequence: every property resolved so far, the tables adoption reads. */
    private final Map<String, List<ValueProperty>> bySequence = new ConcurrentHashMap<>();
    /** Plain sequences only: series are asked of the registry at each use, so idle ones can be released. */
    private final Map<String, Sequence> open = new ConcurrentHashMap<>();
    private final Map<Class<?>, List<PropertyPath>> children = new ConcurrentHashMap<>();
    private final DataSource dataSource;
    /** Guarded by {@code this}. */
    private @Nullable String platform;

    AggregateSequences(SequenceRegistry registry, RelationalMappingContext mappingContext, Dialect dialect,
            DataSource dataSource) {
        this.registry = registry;
        this.mappingContext = mappingContext;
        this.identifiers = dialect.getIdentifierProcessing();
        this.dataSource = dataSource;
    }

    /** Resolves and checks every persistent entity known now; throws {@link SeqgenAggregateException}. */
    void checkAll() {
        List<RelationalPersistentEntity<?>> entities = List.copyOf(mappingContext.getPersistentEntities());
        Set<Class<?>> embedded = new HashSet<>();
        entities.forEach(entity -> entity.doWithProperties((PropertyHandler<RelationalPersistentProperty>) property -> {
            if (property.isEmbedded()) {
                embedded.add(property.getActualType());
            }
        }));
        for (RelationalPersistentEntity<?> entity : entities) {
            if (!embedded.contains(entity.getType())) {
                properties(entity.getType());
                childrenWithValues(entity.getType());
            }
        }
    }

    List<ValueProperty> properties(Class<?> type) {
        return byType.computeIfAbsent(type, key -> {
            RelationalPersistentEntity<?> entity = mappingContext.getRequiredPersistentEntity(type);
            List<ValueProperty> found = paths(entity, List.of())
                    .filter(path -> path.property().isAnnotationPresent(SeqgenValue.class))
                    .map(path -> resolve(entity, path.embedding(), path.property(),
                            path.property().getRequiredAnnotation(SeqgenValue.class)))
                    .toList();
            found.forEach(property -> bySequence.computeIfAbsent(property.sequence(),
                    name -> new CopyOnWriteArrayList<>()).add(property));
            return found;
        });
    }

    /** The properties of a type (and its embedded objects) holding entities with seqgen properties at any depth. */
    List<PropertyPath> childrenWithValues(Class<?> type) {
        return children.computeIfAbsent(type, key -> paths(mappingContext.getRequiredPersistentEntity(type), List.of())
                .filter(path -> path.property().isEntity()
                        && reachesValues(path.property().getActualType(), new HashSet<>(List.of(type))))
                .toList());
    }

    /** Whether the type or an entity it holds has seqgen properties; {@code visiting} ends a cycle. */
    private boolean reachesValues(Class<?> type, Set<Class<?>> visiting) {
        RelationalPersistentEntity<?> entity = visiting.add(type) ? mappingContext.getPersistentEntity(type) : null;
        return entity != null && (!properties(type).isEmpty() || paths(entity, List.of()).anyMatch(path ->
                path.property().isEntity() && reachesValues(path.property().getActualType(), visiting)));
    }

    /** The owner's properties and its embedded objects' at any depth (columns prefixed as inserts do), with paths. */
    private Stream<PropertyPath> paths(RelationalPersistentEntity<?> owner,
            List<RelationalPersistentProperty> embedding) {
        List<PropertyPath> found = new ArrayList<>();
        owner.doWithProperties((PropertyHandler<RelationalPersistentProperty>) property -> {
            RelationalPersistentEntity<?> embedded = property.isEmbedded()
                    ? mappingContext.getPersistentEntity(property) : null;
            if (!property.isEmbedded()) {
                found.add(new PropertyPath(embedding, property));
            } else if (embedded != null) {
                paths(embedded, Stream.concat(embedding.stream(), Stream.of(property)).toList()).forEach(found::add);
            }
        });
        return found.stream();
    }

    private ValueProperty resolve(RelationalPersistentEntity<?> entity, List<RelationalPersistentProperty> embedding,
            RelationalPersistentProperty property, SeqgenValue annotation) {
        boolean id = embedding.isEmpty() && property.isIdProperty();
        String table = entity.getTableName().getReference().toLowerCase(Locale.ROOT);
        String column = property.getColumnName().getReference().toLowerCase(Locale.ROOT);
        String sequence = !annotation.sequence().isBlank() ? annotation.sequence().trim()
                : id ? table : table + "_" + column;
        String path = Stream.concat(embedding.stream(), Stream.of(property))
                .map(RelationalPersistentProperty::getName).collect(Collectors.joining("."));
        String where = "aggregate " + entity.getType().getName() + ", " + (id ? "id property" : "property") + " '"
                + path + "', sequence '" + sequence + "'";
        if (embedding.stream().anyMatch(RelationalPersistentProperty::isIdProperty)) {
            throw new SeqgenAggregateException(where, "the property is part of a composite id (@Id @Embedded), which"
                    + " Spring Data JDBC calls new only while the whole id is null, so seqgen would never set it",
                    "Give the aggregate a single Long or Integer @SeqgenValue id, or assign the composite id in the"
                            + " application");
        }
        Class<?> type = property.getType();
        boolean intValue = type == Integer.class || type == int.class;
        if (!intValue && type != Long.class && type != long.class) {
            throw new SeqgenAggregateException(where, "its type " + type.getName() + " cannot hold a seqgen value",
                    "Declare it Long, long, Integer or int");
        }
        if (id && property.hasSequence()) {
            throw new SeqgenAggregateException(where, "it is also annotated with Spring Data's @Sequence, which"
                    + " would take another value from the database sequence " + property.getSequence(),
                    "Keep one of @SeqgenValue and @Sequence");
        }
        if (annotation.strategy().length > 1) {
            throw new SeqgenAggregateException(where, "@SeqgenValue names " + annotation.strategy().length
                    + " strategies", "Name at most one strategy");
        }
        try {
            Identifiers.requireSequenceName(sequence);
            SequenceSettings settings = settings(sequence, annotation, intValue);
            if (annotation.strategy().length == 1 && annotation.strategy()[0] == Strategy.SYNC
                    && settings.strategy() != Strategy.SYNC && !settings.allowWeakerStrategy()) {
                String key = "seqgen.sequences" + (sequence.matches("[a-z0-9][a-z0-9-]*") ? "." + sequence
                        : "[" + sequence + "]") + ".";
                throw new SeqgenAggregateException(where, "@SeqgenValue declares strategy SYNC (gapless numbers),"
                        + " and the configuration sets strategy=" + settings.strategy().externalName() + " ("
                        + key + "strategy), which would give up the gapless numbers", "Remove " + key
                        + "strategy to keep the code's SYNC; or, if giving up gapless numbers is meant, set "
                        + key + "allow-weaker-strategy=true");
            }
            // whoever opens or creates it first (the warm-up, before any save) uses these settings
            registry.declare(sequence, settings);
            for (ValueProperty other : bySequence.getOrDefault(sequence, List.of())) {
                SequenceRegistry.requireSameSettings(sequence, other.settings(), settings);
            }
            if (settings.strategy() == Strategy.SYNC) {
                requireConnectionTransactions(sequence, settings, where);
            }
            AggregateSeries series = AggregateSeries.of(annotation.seriesBy(), entity, sequence, identifiers, where);
            if (series != null && settings.kind() != CounterKind.TABLE) {
                throw new SeqgenAggregateException(where, "a sequence numbered in series needs a row of seqgen's"
                        + " table for each series, and the sequence's kind is " + settings.kind().externalName(),
                        "Count it in the table: seqgen.sequences." + sequence + ".kind=table");
            }
            return new ValueProperty(embedding, property, sequence, settings, id, intValue,
                    entity.getQualifiedTableName().toSql(identifiers), property.getColumnName().toSql(identifiers),
                    where, series);
        } catch (SequenceException e) {
            throw new SeqgenAggregateException(where, e.getMessage(), "Change the annotation or the seqgen.sequences."
                    + sequence + ".* properties", e);
        }
    }

    /** The registry's settings, with the annotation's strategy unless one was set, and the int range for an int. */
    private SequenceSettings settings(String sequence, SeqgenValue annotation, boolean intValue) {
        SequenceSettings configured = registry.settingsFor(sequence);
        SequenceSettings.Builder settings = configured.toBuilder();
        Map<Setting, String> set = registry.sourcesFor(sequence);
        boolean strategySet = set.isEmpty() ? configured.strategy() != registry.defaults().strategy()
                : set.containsKey(Setting.STRATEGY);
        if (annotation.strategy().length == 1 && !strategySet) {
            settings.strategy(annotation.strategy()[0]);
        }
        if (intValue && configured.maxValue() > SequenceSettings.INT_MAX_VALUE) {
            settings.maxValue(SequenceSettings.INT_MAX_VALUE);
        }
        return settings.build();
    }

    /** SYNC values are taken on the transaction's JDBC connection, so the store must take one. */
    private void requireConnectionTransactions(String sequence, SequenceSettings settings, String where) {
        SequenceStore store = registry.storeOf(sequence, settings);
        Class<?> transactionType = store.transactionType();
        if (transactionType == null || !transactionType.isAssignableFrom(Connection.class)) {
            throw new SeqgenAggregateException(where, "the SYNC strategy takes the value on the JDBC connection of"
                    + " the caller's transaction, and the " + store.name() + " store serving the sequence takes "
                    + (transactionType == null ? "no caller's transaction" : transactionType.getName()),
                    "Serve the sequence from seqgen's JDBC table store over the application's DataSource, or use"
                            + " another strategy");
        }
    }

    /** The property's sequence, or the entity's series of it, opened (row created and adopted) at first use. */
    Sequence sequence(ValueProperty property, Object entity) {
        AggregateSeries.Key key = property.series() == null ? null : property.series().keyOf(entity);
        Sequence sequence = key == null ? open.get(property.sequence())
                : registry.seriesIfOpen(property.sequence(), key.text());
        if (sequence != null) {
            return sequence;
        }
        try {
            return key == null ? open(property) : openSeries(property, key);
        } catch (SequenceException e) {
            throw new SeqgenAggregateException(property.where(), e.getMessage(), "See the cause", e);
        }
    }

    /** The name the values a save draws from an entity's property are counted under: the series' row, or the name. */
    String drawn(ValueProperty property, Object entity) {
        AggregateSeries series = property.series();
        return series == null ? property.sequence()
                : SequenceRegistry.seriesRow(property.sequence(), series.keyOf(entity).text());
    }

    private synchronized Sequence openSeries(ValueProperty property, AggregateSeries.Key key) {
        String name = property.sequence();
        SequenceSettings settings = property.settings();
        Sequence sequence = registry.seriesIfOpen(name, key.text());
        if (sequence != null) {
            return sequence;
        }
        registry.createSeries(name, key.text(), settings);
        SequenceStore store = registry.storeOf(name, settings);
        String platform = platform();
        if (platform == null || store.readsApplicationTables(platform)) {
            long highest = 0;
            Set<String> tables = new LinkedHashSet<>();
            for (ValueProperty user : bySequence.getOrDefault(name, List.of(property))) {
                if (user.series() != null && user.series().sameKeysAs(property.series())) {
                    highest = Math.max(highest, store.highestCounter(user.table(), user.column(), settings,
                            user.series().conditionsOf(key.values())).orElse(0));
                    tables.add(user.table());
                }
            }
            String row = SequenceRegistry.seriesRow(name, key.text());
            if (highest > 0 && highest < Long.MAX_VALUE && store.advance(row, highest + 1)) {
                LOG.log(System.Logger.Level.INFO, "seqgen: moved series '" + row + "' forward to " + (highest + 1)
                        + ", above the highest value of its rows already in table " + String.join(", ", tables) + " ("
                        + highest + ")");
            }
        }
        return registry.series(name, key.text(), settings);
    }

    private synchronized Sequence open(ValueProperty property) {
        return open.computeIfAbsent(property.sequence(), name -> {
            registry.createSequence(name, property.settings());
            startAboveExistingRows(name, property.settings());
            return registry.sequence(name, property.settings());
        });
    }

    /** The aggregates' database as the SPI names it; null if it could not be asked. */
    private @Nullable String platform() {
        if (platform == null) {
            try {
                String product = JdbcUtils.extractDatabaseMetaData(dataSource,
                        DatabaseMetaData::getDatabaseProductName);
                try {
                    platform = JdbcDialect.forProductName(product).platform();
                } catch (IllegalArgumentException unsupported) {
                    platform = String.valueOf(product).toLowerCase(Locale.ROOT);
                }
            } catch (MetaDataAccessException e) {
                return null;
            }
        }
        return platform;
    }

    private void startAboveExistingRows(String name, SequenceSettings settings) {
        SequenceStore store = registry.storeOf(name, settings);
        Map<String, ValueProperty> columns = bySequence.getOrDefault(name, List.of()).stream()
                .collect(Collectors.toMap(user -> user.table() + "." + user.column(), user -> user,
                        (first, second) -> first, LinkedHashMap::new));
        String platform = platform();
        if (!columns.isEmpty() && platform != null && !store.readsApplicationTables(platform)) {
            List<String> tables = columns.values().stream().map(ValueProperty::table).distinct().toList();
            LOG.log(System.Logger.Level.WARNING, () -> "seqgen: the " + store.name() + " store (" + store + ") of"
                    + " sequence '" + name + "' cannot read its tables " + tables + " in the application's " + platform
                    + " database, so the values they hold are not adopted: set seqgen.sequences." + name
                    + ".initial-value above them before the row is created, or keep the rows in that database");
            return;
        }
        long highest = 0;
        String highestTable = null;
        for (ValueProperty user : columns.values()) {
            long counter;
            try {
                counter = store.highestCounter(user.table(), user.column(), settings).orElse(0);
            } catch (SequenceStoreException e) {
                throw new SeqgenAggregateException(user.where(), "could not read table " + user.table() + " to start"
                        + " the sequence above the values it already holds: " + e.getMessage(), "Let the"
                        + " application's database user read the table, or create it before the first save", e);
            }
            if (counter > highest) {
                highest = counter;
                highestTable = user.table();
            }
        }
        if (highest <= 0 || highest == Long.MAX_VALUE) {
            return;
        }
        try {
            if (store.advance(name, highest + 1)) {
                LOG.log(System.Logger.Level.INFO, "seqgen: moved sequence '" + name + "' forward to " + (highest + 1)
                        + ", above the highest value already in table " + highestTable + " (" + highest + ")");
            }
        } catch (UnsupportedOperationException e) {
            LOG.log(System.Logger.Level.WARNING, "seqgen: the " + store.name() + " store cannot move the row of"
                    + " sequence '" + name + "' forward; table " + highestTable + " holds values up to " + highest);
        }
    }
}
