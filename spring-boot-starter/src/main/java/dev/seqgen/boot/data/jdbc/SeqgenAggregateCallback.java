package dev.seqgen.boot.data.jdbc;

import dev.seqgen.Sequence;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.core.Ordered;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.relational.core.mapping.RelationalMappingContext;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.data.relational.core.mapping.event.BeforeConvertCallback;
import org.springframework.data.relational.core.mapping.event.BeforeConvertEvent;

/**
 * Fills the {@link dev.seqgen.SeqgenValue} properties of new roots and of the entities below them before conversion,
 * or at the {@link BeforeConvertEvent} for roots fillable in place. See docs/design.md#spring-data-jdbc-values.
 */
final class SeqgenAggregateCallback implements BeforeConvertCallback<Object>, Ordered, SmartInitializingSingleton {

    private final RelationalMappingContext mappingContext;
    private final AggregateSequences sequences;
    private final TransactionValues transactionValues;
    /** Set while an {@code insert} or {@code insertAll} of the template runs on this thread (SaveAllCounting). */
    private final ThreadLocal<Boolean> inserting = new ThreadLocal<>();
    /** The aggregates filled at their BeforeConvertEvent on this thread, whose callback has not run yet. */
    private final ThreadLocal<Map<Object, Object>> filledByEvent = new ThreadLocal<>();
    private final Map<Class<?>, Boolean> inPlace = new ConcurrentHashMap<>();
    /** How deep this thread is in calls of the template (SaveAllCounting); the outermost drops the marks. */
    private final ThreadLocal<int[]> templateCalls = ThreadLocal.withInitial(() -> new int[1]);

    SeqgenAggregateCallback(RelationalMappingContext mappingContext, AggregateSequences sequences,
            TransactionValues transactionValues) {
        this.mappingContext = mappingContext;
        this.sequences = sequences;
        this.transactionValues = transactionValues;
    }

    /** Checks every persistent entity once the repositories (and their entities) exist. */
    @Override
    public void afterSingletonsInstantiated() {
        sequences.checkAll();
    }

    /** Runs a call saving these roots: each sequence's first increment takes all the SYNC values they will draw. */
    <T> T withSyncDraws(Iterable<?> aggregates, TransactionValues.Call<T> call) throws Throwable {
        Map<String, int[]> draws = new HashMap<>();
        for (Object aggregate : aggregates) {
            List<ValueProperty> properties = aggregate == null ? List.of() : sequences.properties(aggregate.getClass());
            if (properties.stream().noneMatch(ValueProperty::sync) || !isNew(aggregate)) {
                continue;
            }
            for (ValueProperty property : properties) {
                if (property.sync() && takesValue(aggregate, property, property.id())) {
                    draws.computeIfAbsent(sequences.drawn(property, aggregate), name -> new int[1])[0]++;
                }
            }
        }
        return draws.isEmpty() ? call.run() : TransactionValues.withValue(transactionValues.expectedDraws, draws, call);
    }

    /** Runs a saving call of the template (inserting: all new); the outermost drops marks of callbacks never run. */
    <T> T saving(boolean insert, TransactionValues.Call<T> call) throws Throwable {
        int[] depth = templateCalls.get();
        depth[0]++;
        try {
            return insert ? TransactionValues.withValue(inserting, Boolean.TRUE, call) : call.run();
        } finally {
            if (--depth[0] == 0) {
                templateCalls.remove();
                filledByEvent.remove();
            }
        }
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** Fills an event's aggregate in place when its type allows; the callback that follows draws nothing more. */
    void onBeforeConvertEvent(Object aggregate) {
        if (fillsInPlace(aggregate.getClass())) {
            Object filled = fillEntity(aggregate, true);
            if (filledByEvent.get() == null) {
                filledByEvent.set(new IdentityHashMap<>());
            }
            filledByEvent.get().put(aggregate, filled);
        }
    }

    /** Whether the type has seqgen values, all set without replacing the root (see {@link #mayReplaceRoot}). */
    private boolean fillsInPlace(Class<?> type) {
        return inPlace.computeIfAbsent(type, key -> {
            List<ValueProperty> properties = sequences.properties(type);
            List<PropertyPath> children = sequences.childrenWithValues(type);
            return !(properties.isEmpty() && children.isEmpty())
                    && properties.stream().noneMatch(p -> mayReplaceRoot(p.embedding(), p.property()))
                    && children.stream().noneMatch(c -> mayReplaceRoot(c.embedding(), c.property()));
        });
    }

    /** Whether setting the property may replace the root: it and every embedded property above it are immutable. */
    private static boolean mayReplaceRoot(List<RelationalPersistentProperty> embedding,
            RelationalPersistentProperty property) {
        return property.isImmutable() && embedding.stream().allMatch(RelationalPersistentProperty::isImmutable);
    }

    /** Whether the root will be inserted: by Spring Data's rule, or because the template was told to insert it. */
    private boolean isNew(Object aggregate) {
        RelationalPersistentEntity<?> entity = mappingContext.getRequiredPersistentEntity(aggregate.getClass());
        return Boolean.TRUE.equals(inserting.get()) || (entity.hasIdProperty() && entity.isNew(aggregate));
    }

    @Override
    public Object onBeforeConvert(Object aggregate) {
        Map<Object, Object> marks = filledByEvent.get();
        Object filled = marks == null ? null : marks.remove(aggregate);
        if (marks != null && marks.isEmpty()) {
            filledByEvent.remove();
        }
        return filled != null ? filled : fillEntity(aggregate, true);
    }

    /** Fills a new root's values (keeping an assigned id) or each empty one below it, then the entities it holds. */
    private Object fillEntity(Object entity, boolean root) {
        List<ValueProperty> properties = sequences.properties(entity.getClass());
        List<PropertyPath> children = sequences.childrenWithValues(entity.getClass());
        Object filled = entity;
        if (!properties.isEmpty() && (!root || isNew(entity))) {
            for (ValueProperty property : properties) {
                filled = fill(filled, property, !root || property.id());
            }
        }
        for (PropertyPath child : children) {
            Object holder = holder(filled, child.embedding());
            Object held = holder == null ? null : accessor(holder).getProperty(child.property());
            Object replaced = held == null ? null
                    : child.property().isMap() ? fillMap((Map<?, ?>) held)
                    : child.property().isCollectionLike() ? fillCollection((Collection<?>) held)
                    : fillEntity(held, false);
            if (replaced != held) {
                filled = set(filled, child.embedding(), 0, child.property(), replaced);
            }
        }
        return filled;
    }

    /** Gives the property its next value if {@link #takesValue}; returns the entity or what replaced it. */
    private Object fill(Object entity, ValueProperty property, boolean keepValue) {
        if (!takesValue(entity, property, keepValue)) {
            return entity;
        }
        Sequence sequence = sequences.sequence(property, entity);
        long value = property.sync() ? transactionValues.next(sequence, property) : sequence.next();
        return set(entity, property.embedding(), 0, property.property(), property.box(value));
    }

    /** Whether no embedded object on the path is null and, if {@code keepValue}, the property holds no value. */
    private boolean takesValue(Object entity, ValueProperty property, boolean keepValue) {
        Object holder = holder(entity, property.embedding());
        if (holder == null || !keepValue) {
            return holder != null;
        }
        Object value = accessor(holder).getProperty(property.property());
        return value == null || ((Number) value).longValue() == 0;
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

    /** Sets the property at the end of the embedded path from this depth on; returns the object or its replacement. */
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

    /** The collection itself when its entities were filled in place, else a new one of the same kind. */
    private Collection<?> fillCollection(Collection<?> entities) {
        List<Object> filled = new ArrayList<>(entities.size());
        boolean replaced = false;
        for (Object entity : entities) {
            Object after = entity == null ? null : fillEntity(entity, false);
            replaced |= after != entity;
            filled.add(after);
        }
        return !replaced ? entities : entities instanceof Set ? new LinkedHashSet<>(filled) : filled;
    }

    private Map<?, ?> fillMap(Map<?, ?> entities) {
        Map<Object, Object> filled = new LinkedHashMap<>();
        boolean replaced = false;
        for (Map.Entry<?, ?> entry : entities.entrySet()) {
            Object after = entry.getValue() == null ? null : fillEntity(entry.getValue(), false);
            replaced |= after != entry.getValue();
            filled.put(entry.getKey(), after);
        }
        return replaced ? filled : entities;
    }

    private PersistentPropertyAccessor<Object> accessor(Object bean) {
        return mappingContext.getRequiredPersistentEntity(bean.getClass()).getPropertyAccessor(bean);
    }
}
