package dev.seqgen.boot.data.jdbc;

import java.util.List;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/**
 * A property holding entities (one, a collection or a map) with {@link dev.seqgen.SeqgenValue} properties at any
 * depth, after the embedded properties leading to its holder (outermost first; empty for the entity's own).
 */
record HeldEntities(List<RelationalPersistentProperty> embedding, RelationalPersistentProperty property) {
}
