package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;

import java.util.List;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * One property of an aggregate that takes its value from a seqgen sequence, as resolved at start-up: a property of
 * an entity, or of an object the entity embeds (at any depth of embedding).
 *
 * @param embedding the embedded properties from the entity down to the object that holds the property, outermost
 *     first; empty for a property of the entity itself
 * @param property the property (of an embedded object: as Spring Data JDBC's embedded metadata has it, its column
 *     name prefixed)
 * @param sequence the sequence name
 * @param settings the sequence's settings: the registry's for the name, with the annotation's strategy and the
 *     maximum of an {@code int} property
 * @param id whether it is the entity's id (set only when the entity has none) rather than a number; never one
 *     of an embedded object
 * @param intValue whether the property is {@code int}/{@code Integer} rather than {@code long}/{@code Long}
 * @param table the entity's table, as the database needs it (qualified, quoted), for adoption
 * @param column the property's column, as the database needs it, for adoption
 * @param where the aggregate, property (its path through embedded objects) and sequence, for messages
 * @param series how the sequence splits into series by the entity's properties, or null for one series
 */
record ValueProperty(List<RelationalPersistentProperty> embedding, RelationalPersistentProperty property,
        String sequence, SequenceSettings settings, boolean id, boolean intValue, String table, String column,
        String where, @org.jspecify.annotations.Nullable AggregateSeries series) {

    /** Whether the value is taken in the caller's transaction. */
    boolean sync() {
        return settings.strategy() == Strategy.SYNC;
    }

    /** The value as the property's type holds it. */
    Object box(long value) {
        return intValue ? (Object) Math.toIntExact(value) : (Object) value;
    }
}
