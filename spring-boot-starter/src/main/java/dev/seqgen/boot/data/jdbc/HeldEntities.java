package dev.seqgen.boot.data.jdbc;

import java.util.List;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * A property holding entities of an aggregate (one, a collection or a map) with {@link dev.seqgen.SeqgenValue}
 * properties at any depth.
 *
 * @param embedding the embedded properties leading to the property's holder, outermost first; empty for the entity's
 * @param property the property
 */
record HeldEntities(List<RelationalPersistentProperty> embedding, RelationalPersistentProperty property) {
}
