package dev.seqgen.boot.data.jdbc;

import java.util.List;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/** A property of an entity, after the embedded properties leading to its holder (outermost first). */
record PropertyPath(List<RelationalPersistentProperty> embedding, RelationalPersistentProperty property) {
}
