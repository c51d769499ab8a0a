package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SeriesPeriod;
import dev.seqgen.spi.SequenceStore.Where;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.sql.IdentifierProcessing;

/**
 * How a {@link dev.seqgen.SeqgenValue} splits its sequence into series ({@code seriesBy}): the entity's properties
 * that make the key; a key's values select its series' rows for adoption.
 */
record AggregateSeries(List<Part> parts, RelationalPersistentEntity<?> entity, String sequence, String where) {

    /** One property of the key: its value, or the period of its date (null for the value). */
    record Part(RelationalPersistentProperty property, String column, @Nullable SeriesPeriod period) {

        Where condition(Object value) {
            return period != null ? period.rows(column, value, property.getType())
                    : new Where(column, value instanceof Enum<?> constant ? constant.name() : value, null);
        }
    }

    /** A series key read from one entity: its parts joined by {@code /}, and the values they were made of. */
    record Key(String text, List<Object> values) {
    }

    /** Whether another property's keys name the same series (same parts, same periods in the same places). */
    boolean sameKeysAs(AggregateSeries other) {
        return other.parts.stream().map(Part::period).toList().equals(parts.stream().map(Part::period).toList());
    }

    /** The conditions, one per part, that select a series' rows in this table, from its key's values. */
    List<Where> conditionsOf(List<Object> values) {
        return IntStream.range(0, parts.size()).mapToObj(i -> parts.get(i).condition(values.get(i))).toList();
    }

    /** The series of a property, or null when {@code seriesBy} names none; checked. */
    static @Nullable AggregateSeries of(String[] seriesBy, RelationalPersistentEntity<?> entity, String sequence,
            IdentifierProcessing identifiers, String where) {
        if (seriesBy.length == 0) {
            return null;
        }
        List<Part> parts = new ArrayList<>();
        for (String entry : seriesBy) {
            int colon = entry.indexOf(':');
            String name = (colon < 0 ? entry : entry.substring(0, colon)).trim();
            String period = colon < 0 ? null : entry.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            RelationalPersistentProperty property = entity.getPersistentProperty(name);
            if (property == null || property.isEntity() || property.isEmbedded()) {
                throw new SeqgenAggregateException(where, "@SeqgenValue(seriesBy) names '" + name + "', which is not"
                        + " a simple property of " + entity.getType().getName(), "Name a property of the entity's"
                        + " own class, held in one column");
            }
            Class<?> type = property.getType();
            SeriesPeriod kind = period == null ? null : SeriesPeriod.named(period).orElseThrow(() ->
                    new SeqgenAggregateException(where, "@SeqgenValue(seriesBy) entry '" + entry + "' names the"
                            + " period '" + period + "'", "Write '" + name + ":year' or '" + name + ":month'"));
            if (kind == null && !(type == String.class || type.isEnum() || type == Long.class || type == long.class
                    || type == Integer.class || type == int.class || type == Short.class || type == short.class)) {
                throw new SeqgenAggregateException(where, "@SeqgenValue(seriesBy) names property '" + name
                        + "' of type " + type.getName() + ", which a series key is not made of", "Name a String,"
                        + " whole-number or enum property, or a LocalDate or LocalDateTime one with :year or :month");
            }
            if (kind != null && !SeriesPeriod.dates(type)) {
                throw new SeqgenAggregateException(where, "@SeqgenValue(seriesBy) entry '" + entry + "' takes a"
                        + " period of property '" + name + "' of type " + type.getName(), "Take the period of a"
                        + " LocalDate or LocalDateTime property (the document's own date)");
            }
            parts.add(new Part(property, property.getColumnName().toSql(identifiers), kind));
        }
        return new AggregateSeries(List.copyOf(parts), entity, sequence, where);
    }

    /** The key of an entity's series; refused naming the property and value if a part cannot be made. */
    Key keyOf(Object bean) {
        List<String> texts = new ArrayList<>(parts.size());
        List<Object> values = new ArrayList<>(parts.size());
        for (Part part : parts) {
            Object value = entity.getPropertyAccessor(bean).getProperty(part.property());
            String name = part.property().getName();
            if (value == null) {
                throw new SeqgenAggregateException(where, "the series key cannot be made: property '" + name
                        + "' is null", "Give it a value before the save; nothing was written");
            }
            String text = part.period() != null ? part.period().keyPart(value)
                    : value instanceof Enum<?> constant ? constant.name() : value.toString();
            if (text.contains("/")) {
                throw new SeqgenAggregateException(where, "the series key cannot be made: property '" + name
                        + "' is '" + text + "', and a part of a series key cannot hold '/'", "Change the value;"
                        + " nothing was written");
            }
            texts.add(text);
            values.add(value);
        }
        try {
            String key = SequenceRegistry.seriesKey(texts);
            SequenceRegistry.seriesRow(sequence, key);
            return new Key(key, List.copyOf(values));
        } catch (SequenceConfigurationException e) {
            throw new SeqgenAggregateException(where, "the series key cannot be made from " + texts + ": "
                    + e.getMessage(), "Change the values; nothing was written", e);
        }
    }
}
