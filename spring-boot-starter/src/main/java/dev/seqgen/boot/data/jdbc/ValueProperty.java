package dev.seqgen.boot.data.jdbc;

import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * A property of an aggregate (or of an object it embeds) valued from a seqgen sequence, as resolved: {@code embedding}
 * as in {@link PropertyPath}, {@code table} and {@code column} as SQL, {@code where} naming it in messages.
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
