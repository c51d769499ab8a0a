package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceSettings;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.mapping.Column;
import org.hibernate.mapping.Table;
import org.hibernate.mapping.Value;

import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A generator waiting for its sequence, registered with {@link SeqgenRegistryService} while Hibernate reads the
 * mappings.
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
