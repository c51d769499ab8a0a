package dev.seqgen.boot.data.jdbc;

import java.util.List;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;

/** A property holding entities with {@link dev.seqgen.SeqgenValue} properties, after the embedded path to it. */
record HeldEntities(List<RelationalPersistentProperty> embedding, RelationalPersistentProperty property) {
}
