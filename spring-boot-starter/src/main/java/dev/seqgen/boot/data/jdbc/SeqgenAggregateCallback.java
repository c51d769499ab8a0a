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
 *
 * Design: embedded objects
 *
 * A property inside an embedded object (ValueProperty.embedding), and entities held inside one (HeldEntities), are
 * reached through the embedded properties on their path, each object with its own accessor; a value is set in the
 * innermost object, and an object a wither or constructor replaced is set back in its owner, up to the entity. A
 * null embedded object on the path takes no value and counts for no draw (syncDraws asks the same takesValue).
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
     * of a new root (an id only when it holds none; none behind a null embedded object), by the rule
     * {@link #onBeforeConvert} applies. No I/O.
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
        List<HeldEntities> children = sequences.childrenWithValues(type);
        if (properties.isEmpty() && children.isEmpty()) {
            return aggregate;
        }
        boolean isNew = isNew(mappingContext.getRequiredPersistentEntity(type), aggregate);
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
        return fillChildren(filled, children);
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
        return fillChildren(filled, sequences.childrenWithValues(type));
    }

    /**
     * Fills the entities the properties of the entity hold: one, a collection or a map's values; a new container if
     * one changed. Returns the entity, a new one where a wither replaced it.
     */
    private Object fillChildren(Object entity, List<HeldEntities> children) {
        Object filled = entity;
        for (HeldEntities child : children) {
            Object holder = holder(filled, child.embedding());
            Object held = holder == null ? null : accessor(holder).getProperty(child.property());
            Object replaced = held == null ? null
                    : child.property().isMap() ? fillMap((Map<?, ?>) held)
                    : child.property().isCollectionLike() ? fillCollection((Collection<?>) held)
                    : fillEntity(held);
            if (replaced != held) {
                filled = set(filled, child.embedding(), 0, child.property(), replaced);
            }
        }
        return filled;
    }

    /**
     * Gives the property of the entity its next value unless an embedded object on its path is null (a null
     * embedded object is stored as null columns; a value there would be stored nowhere, a gap in a SYNC sequence)
     * or it holds one and {@code keepValue}. Returns the entity, a new one where a wither (its own or an embedded
     * object's) replaced it.
     */
    private Object fill(Object entity, ValueProperty property, boolean keepValue) {
        return takesValue(entity, property, keepValue)
                ? set(entity, property.embedding(), 0, property.property(), property.box(next(property)))
                : entity;
    }

    /** Whether {@link #fill} gives the property of the entity a value. */
    private boolean takesValue(Object entity, ValueProperty property, boolean keepValue) {
        Object holder = holder(entity, property.embedding());
        return holder != null && !(keepValue && hasValue(accessor(holder).getProperty(property.property())));
    }

    /** The object the embedded properties lead to from the entity: itself when there are none; null if one is null. */
    private @Nullable Object holder(Object entity, List<RelationalPersistentProperty> embedding) {
        Object holder = entity;
        for (RelationalPersistentProperty embedded : embedding) {
            holder = accessor(holder).getProperty(embedded);
            if (holder == null) {
                return null;
            }
        }
        return holder;
    }

    /**
     * Sets the property of the object the embedded properties lead to, from this depth of them on; returns the object
     * at this depth, or the one that replaced it.
     */
    private Object set(Object object, List<RelationalPersistentProperty> embedding, int depth,
            RelationalPersistentProperty property, @Nullable Object value) {
        PersistentPropertyAccessor<Object> accessor = accessor(object);
        if (depth == embedding.size()) {
            accessor.setProperty(property, value);
        } else {
            Object embedded = accessor.getProperty(embedding.get(depth));
            Object replaced = set(embedded, embedding, depth + 1, property, value);
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
