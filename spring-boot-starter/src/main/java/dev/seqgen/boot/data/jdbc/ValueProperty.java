package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * A property of an aggregate (or of an object it embeds at any depth) valued from a seqgen sequence, as resolved.
 *
 * @param embedding the embedded properties leading to the property's holder, outermost first
 * @param settings the registry's settings, with the annotation's strategy and an {@code int}'s maximum
 * @param table the entity's table as SQL (qualified, quoted), for adoption
 * @param where the aggregate, property path and sequence, for messages
 */
record ValueProperty(List<RelationalPersistentProperty> embedding, RelationalPersistentProperty property,
        String sequence, SequenceSettings settings, boolean id, boolean intValue, String table, String column,
        String where, @Nullable AggregateSeries series) {

    boolean sync() {
        return settings.strategy() == Strategy.SYNC;
    }

    Object box(long value) {
        return intValue ? (Object) Math.toIntExact(value) : (Object) value;
    }
}
