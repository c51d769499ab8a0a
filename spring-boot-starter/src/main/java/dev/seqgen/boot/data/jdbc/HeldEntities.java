package dev.seqgen.boot.data.jdbc;

import java.util.List;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * A property that holds entities of an aggregate (one, a collection or a map of them) whose types have
 * {@link dev.seqgen.SeqgenValue} properties, themselves or further down: a property of an entity, or of an object the
 * entity embeds.
 *
 * @param embedding the embedded properties from the entity down to the object that holds the property, outermost
 *     first; empty for a property of the entity itself
 * @param property the property
 */
record HeldEntities(List<RelationalPersistentProperty> embedding, RelationalPersistentProperty property) {
}
