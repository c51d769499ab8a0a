package dev.seqgen.boot.data.jdbc;

import dev.seqgen.Sequence;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;

/**
 * Fills the {@link dev.seqgen.SeqgenValue} properties of an aggregate before Spring Data JDBC converts it into its
 * inserts: those of a new root (its id when it has none, every other annotated property), and those that hold no
 * value in the entities the aggregate holds below its root, which every save inserts again.
 *
 * <pre>
 * Design: why BeforeConvertCallback, not BeforeSaveCallback
 *
 * Spring Data Relational (3.5 to 4.1) decides whether an insert supplies the id (IdValueSource) when it converts the
 * aggregate into its actions, that is after BeforeConvertCallback and before BeforeSaveCallback. An id set in a
 * BeforeSaveCallback is therefore too late: the insert still expects a database-generated key. Spring Data's own
 * IdGeneratingEntityCallback for @Sequence can be a BeforeSaveCallback only because IdValueSource treats any id with
 * @Sequence as provided. Whether the aggregate is new is decided even earlier (save and saveAll ask before any
 * callback), so it is asked here before the id is set, with the same rule (PersistentEntity.isNew); insert and
 * insertAll insert whatever they get, which the template's proxy (SaveAllCounting) says for the duration of the call.
 *
 * Values come from the shared Sequence (no round trip with a block in hand) or, for SYNC, from the caller's
 * transaction (TransactionValues). The callback runs once per aggregate, also within saveAll. Entities below the
 * root are reached through the properties that hold them (AggregateSequences.childrenWithValues, resolved once per
 * type); an immutable one filled through its wither is put back in a new list, set or map of the same order.
 * </pre>
 */
final class SeqgenAggregateCallback implements BeforeConvertCallback<Object> {

    private final RelationalMappingContext mappingContext;
    private final AggregateSequences sequences;
    private final TransactionValues transactionValues;
    /** Set while an {@code insert} or {@code insertAll} of the template runs on this thread (SaveAllCounting). */
    private final ThreadLocal<Boolean> inserting = new ThreadLocal<>();

    SeqgenAggregateCallback(RelationalMappingContext mappingContext, AggregateSequences sequences,
            TransactionValues transactionValues) {
        this.mappingContext = mappingContext;
        this.sequences = sequences;
        this.transactionValues = transactionValues;
    }

    /** Resolves and checks every persistent entity known now; the start-up check. */
    void checkAll() {
        sequences.checkAll();
    }

    /**
     * How many SYNC values of each sequence the roots of these aggregates will draw when saved: one per SYNC property
     * of a new root (an id only when it holds none), by the rule {@link #onBeforeConvert} applies. No I/O.
     */
    Map<String, Integer> syncDraws(Iterable<?> aggregates, boolean inserted) {
        Map<String, Integer> draws = new HashMap<>();
        for (Object aggregate : aggregates) {
            if (aggregate == null) {
                continue;
            }
            List<ValueProperty> properties = sequences.properties(aggregate.getClass());
            if (properties.stream().noneMatch(ValueProperty::sync)) {
                continue;
            }
            RelationalPersistentEntity<?> entity = mappingContext.getRequiredPersistentEntity(aggregate.getClass());
            if (!inserted && !isNew(entity, aggregate)) {
                continue;
            }
            for (ValueProperty property : properties) {
                if (property.sync() && takesValue(aggregate, property, property.id())) {
                    draws.merge(property.sequence(), 1, Integer::sum);
                }
            }
        }
        return draws;
    }

    /**
     * Runs a call that is expected to draw these SYNC values, so that the first increment of each sequence takes them
     * all (see {@link SaveAllCounting}).
     */
    <T> T withExpectedDraws(Map<String, Integer> draws, TransactionValues.Call<T> call) throws Throwable {
        return transactionValues.withExpectedDraws(draws, call);
    }

    /**
     * Runs an {@code insert} or {@code insertAll} of the template: its aggregates are new, also those that hold an
     * id the application assigned, so their other seqgen properties get values.
     */
    <T> T inserting(TransactionValues.Call<T> call) throws Throwable {
        Boolean outer = inserting.get();
        inserting.set(Boolean.TRUE);
        try {
            return call.run();
        } finally {
            if (outer == null) {
                inserting.remove();
            } else {
                inserting.set(outer);
            }
        }
    }

    /** Whether the root will be inserted: by Spring Data's rule, or because the template was told to insert it. */
    private boolean isNew(RelationalPersistentEntity<?> entity, Object aggregate) {
        return Boolean.TRUE.equals(inserting.get()) || (entity.hasIdProperty() && entity.isNew(aggregate));
    }

    @Override
    public Object onBeforeConvert(Object aggregate) {
        Class<?> type = aggregate.getClass();
        List<ValueProperty> properties = sequences.properties(type);
        List<RelationalPersistentProperty> children = sequences.childrenWithValues(type);
        if (properties.isEmpty() && children.isEmpty()) {
            return aggregate;
        }
        RelationalPersistentEntity<?> entity = mappingContext.getRequiredPersistentEntity(type);
        boolean isNew = isNew(entity, aggregate);
        if (!isNew && children.isEmpty()) {
            return aggregate;
        }
        Object filled = aggregate;
        if (isNew) {
            for (ValueProperty property : properties) {
                // an id the application assigned (an aggregate new by its version or Persistable) is kept
                filled = fill(filled, property, property.id());
            }
        }
        return fillChildren(entity.getPropertyAccessor(filled), children);
    }

    /**
     * Fills the entities an aggregate holds below its root. Spring Data JDBC deletes and inserts them again at every
     * save of the root, new or not, so each annotated property that holds no value (null or 0) gets one, and one
     * that holds a value keeps it.
     */
    private Object fillEntity(Object bean) {
        Class<?> type = bean.getClass();
        Object filled = bean;
        for (ValueProperty property : sequences.properties(type)) {
            filled = fill(filled, property, true);
        }
        return fillChildren(mappingContext.getRequiredPersistentEntity(type).getPropertyAccessor(filled),
                sequences.childrenWithValues(type));
    }

    /**
     * Fills the entities the properties hold: one, a collection or a map's values; a new container if one changed.
     * Returns the bean, a new one where a wither replaced it.
     */
    private Object fillChildren(PersistentPropertyAccessor<Object> accessor,
            List<RelationalPersistentProperty> children) {
        for (RelationalPersistentProperty child : children) {
            Object held = accessor.getProperty(child);
            Object filled = held == null ? null
                    : child.isMap() ? fillMap((Map<?, ?>) held)
                    : child.isCollectionLike() ? fillCollection((Collection<?>) held)
                    : fillEntity(held);
            if (filled != held) {
                accessor.setProperty(child, filled);
            }
        }
        return accessor.getBean();
    }

    /**
     * Whether the property of the entity takes a value: not when an embedded object on its path is null (a null
     * embedded object is stored as null columns; a value there would be stored nowhere, a gap in a SYNC sequence),
     * nor when it holds one and {@code keepValue}.
     */
    private boolean takesValue(Object entity, ValueProperty property, boolean keepValue) {
        Object holder = entity;
        for (RelationalPersistentProperty embedded : property.embedding()) {
            holder = accessor(holder).getProperty(embedded);
            if (holder == null) {
                return false;
            }
        }
        return !(keepValue && hasValue(accessor(holder).getProperty(property.property())));
    }

    /**
     * Gives the property of the entity its next value if it {@link #takesValue takes one}, through the embedded
     * objects on its path. Returns the entity, a new one where a wither (its own or an embedded object's) replaced
     * it.
     */
    private Object fill(Object entity, ValueProperty property, boolean keepValue) {
        return takesValue(entity, property, keepValue) ? set(entity, property, 0, property.box(next(property)))
                : entity;
    }

    /** Sets the value in the object at this depth of the property's path; returns it, or what replaced it. */
    private Object set(Object holder, ValueProperty property, int depth, Object value) {
        List<RelationalPersistentProperty> embedding = property.embedding();
        PersistentPropertyAccessor<Object> accessor = accessor(holder);
        if (depth == embedding.size()) {
            accessor.setProperty(property.property(), value);
        } else {
            Object embedded = accessor.getProperty(embedding.get(depth));
            Object replaced = set(embedded, property, depth + 1, value);
            if (replaced != embedded) {
                accessor.setProperty(embedding.get(depth), replaced);
            }
        }
        return accessor.getBean();
    }

    /** The collection itself when its entities were filled in place; else a new one of the same kind. */
    private Collection<?> fillCollection(Collection<?> entities) {
        List<Object> filled = new ArrayList<>(entities.size());
        boolean replaced = false;
        for (Object entity : entities) {
            Object after = entity == null ? null : fillEntity(entity);
            replaced |= after != entity;
            filled.add(after);
        }
        if (!replaced) {
            return entities;
        }
        return entities instanceof Set ? new LinkedHashSet<>(filled) : filled;
    }

    private Map<?, ?> fillMap(Map<?, ?> entities) {
        Map<Object, Object> filled = new LinkedHashMap<>();
        boolean replaced = false;
        for (Map.Entry<?, ?> entry : entities.entrySet()) {
            Object after = entry.getValue() == null ? null : fillEntity(entry.getValue());
            replaced |= after != entry.getValue();
            filled.put(entry.getKey(), after);
        }
        return replaced ? filled : entities;
    }

    /** An accessor of an entity or of an object it embeds. */
    private PersistentPropertyAccessor<Object> accessor(Object bean) {
        return mappingContext.getRequiredPersistentEntity(bean.getClass()).getPropertyAccessor(bean);
    }

    private long next(ValueProperty property) {
        Sequence sequence = sequences.sequence(property);
        return property.sync() ? transactionValues.next(sequence, property) : sequence.next();
    }

    private static boolean hasValue(@Nullable Object value) {
        return value != null && ((Number) value).longValue() != 0;
    }
}
