package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;

import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * One property of an aggregate that takes its value from a seqgen sequence, as resolved at start-up.
 *
 * @param property the property
 * @param sequence the sequence name
 * @param settings the sequence's settings: the registry's for the name, with the annotation's strategy and the
 *     maximum of an {@code int} property
 * @param id whether it is the aggregate's id (set only when the aggregate has none) rather than a number
 * @param intValue whether the property is {@code int}/{@code Integer} rather than {@code long}/{@code Long}
 * @param table the aggregate's table, as the database needs it (qualified, quoted), for adoption
 * @param column the property's column, as the database needs it, for adoption
 * @param where the aggregate, property and sequence, for messages
 */
record ValueProperty(RelationalPersistentProperty property, String sequence, SequenceSettings settings, boolean id,
        boolean intValue, String table, String column, String where) {

    /** Whether the value is taken in the caller's transaction. */
    boolean sync() {
        return settings.strategy() == Strategy.SYNC;
    }

    /** The value as the property's type holds it. */
    Object box(long value) {
        return intValue ? (Object) Math.toIntExact(value) : (Object) value;
    }
}
