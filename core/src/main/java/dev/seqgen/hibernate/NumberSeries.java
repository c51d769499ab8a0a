package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SeriesPeriod;
import dev.seqgen.spi.SequenceStore.Where;

import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hibernate.MappingException;
import org.hibernate.annotations.TenantId;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.mapping.Column;
import org.hibernate.mapping.PersistentClass;
import org.hibernate.mapping.Property;
import org.hibernate.mapping.Value;
import org.hibernate.persister.entity.EntityPersister;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link SeqgenNumber} splits its sequence into series: the parts of an inserted entity's series key, the
 * tenant's first ({@link SeqgenNumber#perTenant()}), then {@link SeqgenNumber#seriesBy()} in order. Resolved and
 * checked when Hibernate creates the generator (every attribute exists, has a type a key can be made of, and is one
 * column); read from each entity at its insert, where a key that cannot be made fails naming the entity, the
 * attribute and the value. A key's values give the conditions that select the rows of its series in the entity's
 * table, or in another table numbered in the same series ({@link #conditionsOf}), for the adoption of the numbers a
 * series already holds there.
 */
final class NumberSeries {

    /**
     * The part of a key one attribute (or the tenant) gives; {@code name} is how a format names it, {@code period}
     * the period of a PERIOD part, {@code type} the attribute's type (how its column is bound).
     */
    private record Part(String name, String attribute, @Nullable String column, Kind kind,
            @Nullable SeriesPeriod period, @Nullable Class<?> type, @Nullable EnumType enumType) {
    }

    /**
     * TENANT: the {@code @TenantId} attribute's tenant (a column of the shared table); SCHEMA: the session's tenant
     * where each tenant has a schema or database of its own (no column: the tenant's connection reaches its rows);
     * VALUE: an attribute's value; PERIOD: a period of a date attribute.
     */
    private enum Kind { TENANT, SCHEMA, VALUE, PERIOD }

    private final List<Part> parts;
    private final String where;
    /**
     * Whether the rows of a series are adopted: not for a series shared by all tenants where each has a schema or
     * database of its own (perTenant = false), whose rows are in every tenant's tables, which no connection reads.
     */
    private final boolean adopts;

    private NumberSeries(List<Part> parts, String where, boolean adopts) {
        this.parts = List.copyOf(parts);
        this.where = where;
        this.adopts = adopts;
    }

    /**
     * A series key read from one entity: its text (the parts joined by {@code /}), and the values it was made of, from
     * which {@link #conditionsOf} selects the rows of that series in a table numbered in it.
     *
     * @param text the key
     * @param parts the texts of its parts, in key order
     * @param values the values the parts were made of (the tenant identifier, the attributes' values), in key order
     * @param schemaTenant the tenant whose connection reaches the series' rows (schema or database per tenant), or
     *     null when they are in the tables every connection sees
     */
    record Key(String text, List<String> parts, List<Object> values, @Nullable Object schemaTenant) {
    }

    /**
     * Whether another generator's series make the same keys as this one's: the same kinds of parts, in the same
     * order, the same periods. Then a key of one names the same series in the other's table, whose rows
     * {@link #conditionsOf} selects.
     *
     * @param other the other generator's series
     * @return whether their keys mean the same
     */
    boolean sameKeysAs(NumberSeries other) {
        if (other.parts.size() != parts.size()) {
            return false;
        }
        for (int i = 0; i < parts.size(); i++) {
            if (other.parts.get(i).kind() != parts.get(i).kind() || other.parts.get(i).period() != parts.get(i)
                    .period()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The conditions that select the rows of a series in this generator's table, from the values a key was made of
     * (by this generator or by another one whose keys are the same, {@link #sameKeysAs}).
     *
     * @param values the key's values, in key order
     * @return the conditions, or null when a part is not one plain column, or the series adopts nothing (then no
     *     rows of this table are read)
     */
    @Nullable List<Where> conditionsOf(List<Object> values) {
        if (!adopts) {
            return null;
        }
        List<Where> conditions = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            if (part.kind() == Kind.SCHEMA) {
                continue;
            }
            if (part.column() == null) {
                return null;
            }
            Object value = values.get(i);
            if (part.kind() == Kind.PERIOD) {
                conditions.add(part.period().rows(part.column(), value, part.type()));
            } else if (value instanceof Enum<?> constant) {
                conditions.add(new Where(part.column(), part.enumType() == EnumType.STRING ? constant.name()
                        : (Object) constant.ordinal(), null));
            } else {
                conditions.add(new Where(part.column(), value, null));
            }
        }
        return conditions;
    }

    /** @return the names a format gives the key's parts, in key order: {@code tenant}, then the seriesBy entries */
    List<String> partNames() {
        return parts.stream().map(Part::name).toList();
    }

    /**
     * The series of a {@link SeqgenNumber}, or null when its numbers are one series (no {@code seriesBy}, and no
     * tenant of partitioned multi-tenancy or {@code perTenant = false}).
     *
     * @throws SeqgenMappingException naming the attribute at fault
     */
    static @Nullable NumberSeries of(SeqgenNumber annotation, GeneratorCreationContext context, String where,
            boolean schemaPerTenant) {
        PersistentClass entity = context.getPersistentClass();
        Class<?> mapped = entity.getMappedClass();
        List<Part> parts = new ArrayList<>();
        if (annotation.perTenant()) {
            String tenant = tenantAttribute(mapped);
            if (schemaPerTenant) {
                parts.add(new Part("tenant", "tenant", null, Kind.SCHEMA, null, null, null));
            } else if (tenant != null) {
                parts.add(new Part("tenant", tenant, column(entity, tenant), Kind.TENANT, null, null, null));
            }
        }
        for (String entry : annotation.seriesBy()) {
            int colon = entry.indexOf(':');
            String attribute = (colon < 0 ? entry : entry.substring(0, colon)).trim();
            String period = colon < 0 ? null : entry.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            Class<?> type = attributeType(entity, mapped, attribute, where);
            Kind kind;
            SeriesPeriod named = null;
            if (period == null) {
                if (!(type == String.class || type.isEnum() || type == Long.class || type == long.class
                        || type == Integer.class || type == int.class || type == Short.class || type == short.class)) {
                    throw new SeqgenMappingException(where, "@SeqgenNumber(seriesBy) names attribute '" + attribute
                            + "' of type " + type.getName() + ", which a series key is not made of",
                            "Name a String, whole-number or enum attribute, or a LocalDate or LocalDateTime"
                                    + " attribute with :year or :month", null);
                }
                kind = Kind.VALUE;
            } else {
                kind = Kind.PERIOD;
                named = SeriesPeriod.named(period).orElseThrow(() -> new SeqgenMappingException(where,
                        "@SeqgenNumber(seriesBy) entry '" + entry + "' names the period '" + period + "'", "Write '"
                                + attribute + ":year' or '" + attribute + ":month'", null));
                if (!SeriesPeriod.dates(type)) {
                    throw new SeqgenMappingException(where, "@SeqgenNumber(seriesBy) entry '" + entry + "' takes a"
                            + " period of attribute '" + attribute + "' of type " + type.getName(), "Take the"
                            + " period of a LocalDate or LocalDateTime attribute (the document's own date)", null);
                }
            }
            parts.add(new Part(period == null ? attribute : attribute + ":" + period, attribute,
                    column(entity, attribute), kind, named, type, type.isEnum() ? enumType(mapped, attribute) : null));
        }
        // A series shared by all tenants that each have a schema or database of their own has its rows in every
        // tenant's tables: none is read, it starts at the initial value its sequence must set (GeneratorSettings).
        return parts.isEmpty() ? null : new NumberSeries(parts, where, annotation.perTenant() || !schemaPerTenant);
    }

    /**
     * The series of an id where each tenant has a schema or database of its own: one per tenant, since each
     * tenant's tables start from their own ids.
     */
    static NumberSeries perSchemaTenant(String where) {
        return new NumberSeries(List.of(new Part("tenant", "tenant", null, Kind.SCHEMA, null, null, null)), where,
                true);
    }

    /**
     * The key of an entity's series, with the values it was made of.
     *
     * @throws IllegalArgumentException naming the entity, the attribute and the value, if a part is null, empty
     *     or holds a character a key cannot hold, or the key is too long
     */
    Key keyOf(SharedSessionContractImplementor session, Object entity, String sequence) {
        List<String> texts = new ArrayList<>(parts.size());
        List<Object> values = new ArrayList<>(parts.size());
        Object schemaTenant = null;
        EntityPersister persister = null;
        for (Part part : parts) {
            boolean tenant = part.kind() == Kind.TENANT || part.kind() == Kind.SCHEMA;
            if (!tenant && persister == null) {
                persister = session.getEntityPersister(null, entity);
            }
            Object value = tenant ? session.getTenantIdentifierValue()
                    : persister.getPropertyValue(entity, part.attribute());
            if (value == null) {
                throw badKey(part, null, tenant ? "the session has no tenant identifier" : "the attribute is null");
            }
            if (part.kind() == Kind.SCHEMA) {
                schemaTenant = value;
            }
            String text = part.kind() == Kind.PERIOD ? part.period().keyPart(value)
                    : value instanceof Enum<?> constant ? constant.name() : value.toString();
            if (text.contains("/")) {
                throw badKey(part, value, "a part of a series key cannot hold '/'");
            }
            texts.add(text);
            values.add(value);
        }
        try {
            // Each part is checked once, by seriesRow, with the sequence name and the row's length.
            String key = String.join("/", texts);
            SequenceRegistry.seriesRow(sequence, key);
            return new Key(key, List.copyOf(texts), List.copyOf(values), schemaTenant);
        } catch (SequenceConfigurationException e) {
            throw new IllegalArgumentException("seqgen: " + where + ": the series key of entity "
                    + session.getEntityPersister(null, entity).getEntityName() + " cannot be made from "
                    + describe(session, entity) + ": " + e.getMessage(), e);
        }
    }

    /** The attributes the key is made of, with their values, for a message. */
    private String describe(SharedSessionContractImplementor session, Object entity) {
        List<String> described = new ArrayList<>();
        for (Part part : parts) {
            boolean tenant = part.kind() == Kind.TENANT || part.kind() == Kind.SCHEMA;
            Object value = tenant ? session.getTenantIdentifierValue()
                    : session.getEntityPersister(null, entity).getPropertyValue(entity, part.attribute());
            described.add((tenant ? "tenant " : "attribute '" + part.attribute() + "' = ")
                    + "'" + value + "'");
        }
        return String.join(", ", described);
    }

    private IllegalArgumentException badKey(Part part, @Nullable Object value, String problem) {
        String attribute = part.kind() == Kind.TENANT ? "the tenant (@TenantId '" + part.attribute() + "')"
                : part.kind() == Kind.SCHEMA ? "the session's tenant" : "attribute '" + part.attribute() + "'";
        return new IllegalArgumentException("seqgen: " + where + ": the series key cannot be made from " + attribute
                + (value == null ? "" : ", value '" + value + "'") + ": " + problem + "; nothing was inserted");
    }

    /** The attribute of the entity's class (or a superclass) annotated {@code @TenantId}, or null. */
    private static @Nullable String tenantAttribute(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (field.isAnnotationPresent(TenantId.class)) {
                    return field.getName();
                }
            }
            for (Method method : c.getDeclaredMethods()) {
                if (method.isAnnotationPresent(TenantId.class) && method.getName().startsWith("get")
                        && method.getName().length() > 3) {
                    return Character.toLowerCase(method.getName().charAt(3)) + method.getName().substring(4);
                }
            }
        }
        return null;
    }

    private static Class<?> attributeType(PersistentClass entity, Class<?> mapped, String attribute, String where) {
        try {
            return property(entity, attribute).getGetter(mapped).getReturnTypeClass();
        } catch (MappingException | IllegalArgumentException e) {
            throw new SeqgenMappingException(where, "@SeqgenNumber(seriesBy) names attribute '" + attribute
                    + "', which entity " + entity.getEntityName() + " does not map", "Name a mapped attribute of"
                    + " the entity", e);
        }
    }

    private static Property property(PersistentClass entity, String attribute) {
        return entity.getRecursiveProperty(attribute);
    }

    /** The attribute's one column, quoted as Hibernate writes it, or null when it is not one plain column. */
    private static @Nullable String column(PersistentClass entity, String attribute) {
        Value value = property(entity, attribute).getValue();
        return value.getColumnSpan() == 1 && value.getSelectables().get(0) instanceof Column column
                ? column.getQuotedName() : null;
    }

    /** How an enum attribute is stored: {@code @Enumerated(STRING)} by name, otherwise by ordinal. */
    private static EnumType enumType(Class<?> type, String attribute) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (AnnotatedElement element : members(c, attribute)) {
                Enumerated enumerated = element.getAnnotation(Enumerated.class);
                if (enumerated != null) {
                    return enumerated.value();
                }
            }
        }
        return EnumType.ORDINAL;
    }

    private static List<AnnotatedElement> members(Class<?> c, String attribute) {
        List<AnnotatedElement> members = new ArrayList<>();
        for (Field field : c.getDeclaredFields()) {
            if (field.getName().equals(attribute)) {
                members.add(field);
            }
        }
        String getter = "get" + Character.toUpperCase(attribute.charAt(0)) + attribute.substring(1);
        for (Method method : c.getDeclaredMethods()) {
            if (method.getName().equals(getter)) {
                members.add(method);
            }
        }
        return members;
    }
}
