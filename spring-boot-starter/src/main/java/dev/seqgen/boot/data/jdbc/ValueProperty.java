package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;

import java.util.List;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * One property of an aggregate that takes its value from a seqgen sequence, as resolved at start-up: of the entity,
 * or of an object it embeds at any depth.
 *
 * @param embedding the embedded properties leading to the property's holder, outermost first; empty for the entity's
 * @param property the property (embedded: with its prefixed column name)
 * @param sequence the sequence name
 * @param settings the registry's settings, with the annotation's strategy and an {@code int}'s maximum
 * @param id whether it is the entity's own id (never of an embedded object)
 * @param intValue whether the property is {@code int}/{@code Integer}
 * @param table the entity's table as SQL (qualified, quoted), for adoption
 * @param column the property's column as SQL, for adoption
 * @param where the aggregate, property path and sequence, for messages
 * @param series how the sequence splits into series, or null for one series
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
