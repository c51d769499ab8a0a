package dev.seqgen.hibernate;

import dev.seqgen.SequenceConfigurationException;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SeriesPeriod;
import dev.seqgen.spi.SequenceStore.Where;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.hibernate.MappingException;
import org.hibernate.annotations.TenantId;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.GeneratorCreationContext;
import org.hibernate.mapping.PersistentClass;
import org.hibernate.persister.entity.EntityPersister;
import org.jspecify.annotations.Nullable;

/** A {@link SeqgenNumber}'s series key parts (the tenant, then {@code seriesBy}), read from each entity at insert. */
final class NumberSeries {

    /** The whole-number types a VALUE part may have, with how a key part's text is read as one. */
    private static final Map<Class<?>, Function<String, Object>> WHOLE_NUMBERS = Map.of(Long.class, Long::valueOf,
            long.class, Long::valueOf, Integer.class, Integer::valueOf, int.class, Integer::valueOf,
            Short.class, Short::valueOf, short.class, Short::valueOf);

    /** The part of a key one attribute (or the tenant) gives; {@code name} is how a format names it. */
    private record Part(String name, String attribute, @Nullable String column, Kind kind,
            @Nullable SeriesPeriod period, @Nullable Class<?> type, @Nullable EnumType enumType) {
    }

    /** TENANT: a {@code @TenantId} column; SCHEMA: schema-per-tenant (no column); VALUE; PERIOD: a date's period. */
    private enum Kind { TENANT, SCHEMA, VALUE, PERIOD }

    private static final Part SCHEMA_TENANT = new Part("tenant", "tenant", null, Kind.SCHEMA, null, null, null);

    private final List<Part> parts;
    private final String where;
    /** False for a series shared by all tenants of schema-per-tenant, whose rows no one connection reads. */
    private final boolean adopts;

    private NumberSeries(List<Part> parts, String where, boolean adopts) {
        this.parts = List.copyOf(parts);
        this.where = where;
        this.adopts = adopts;
    }

    /** A series key: its text, its parts and their values in key order, and its schema-per-tenant tenant or null. */
    record Key(String text, List<String> parts, List<Object> values, @Nullable Object schemaTenant) {
    }

    /** Whether another generator's keys mean the same: the same kinds of parts, in order, the same periods. */
    boolean sameKeysAs(NumberSeries other) {
        Function<Part, List<?>> shape = part -> Arrays.asList(part.kind(), part.period());
        return parts.stream().map(shape).toList().equals(other.parts.stream().map(shape).toList());
    }

    /** The conditions selecting a key's rows in this generator's table, or null when none can be read. */
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
            Object value = !(values.get(i) instanceof Enum<?> constant) ? values.get(i)
                    : part.enumType() == EnumType.STRING ? constant.name() : (Object) constant.ordinal();
            conditions.add(part.kind() == Kind.PERIOD ? part.period().rows(part.column(), value, part.type())
                    : new Where(part.column(), value, null));
        }
        return conditions;
    }

    List<String> partNames() {
        return parts.stream().map(Part::name).toList();
    }

    /** The series of a {@link SeqgenNumber}, or null for one series; fails naming an attribute at fault. */
    static @Nullable NumberSeries of(SeqgenNumber annotation, GeneratorCreationContext context, String where,
            boolean schemaPerTenant) {
        PersistentClass entity = context.getPersistentClass();
        Class<?> mapped = entity.getMappedClass();
        List<Part> parts = new ArrayList<>();
        if (annotation.perTenant()) {
            String tenant = tenantAttribute(mapped);
            if (schemaPerTenant) {
                parts.add(SCHEMA_TENANT);
            } else if (tenant != null) {
                parts.add(new Part("tenant", tenant, GeneratorSettings.quotedColumn(
                        entity.getRecursiveProperty(tenant).getValue()), Kind.TENANT, null, null, null));
            }
        }
        for (String entry : annotation.seriesBy()) {
            int colon = entry.indexOf(':');
            String attribute = (colon < 0 ? entry : entry.substring(0, colon)).trim();
            String period = colon < 0 ? null : entry.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            Class<?> type;
            try {
                type = entity.getRecursiveProperty(attribute).getGetter(mapped).getReturnTypeClass();
            } catch (MappingException | IllegalArgumentException e) {
                throw new SeqgenMappingException(where, "@SeqgenNumber(seriesBy) names attribute '" + attribute
                        + "', which entity " + entity.getEntityName() + " does not map", "Name a mapped attribute of"
                        + " the entity", e);
            }
            SeriesPeriod named = period == null ? null : SeriesPeriod.named(period).orElseThrow(() ->
                    new SeqgenMappingException(where, "@SeqgenNumber(seriesBy) entry '" + entry + "' names the period '"
                            + period + "'", "Write '" + attribute + ":year' or '" + attribute + ":month'", null));
            if (named == null && !(type == String.class || type.isEnum() || WHOLE_NUMBERS.containsKey(type))) {
                throw new SeqgenMappingException(where, "@SeqgenNumber(seriesBy) names attribute '" + attribute
                        + "' of type " + type.getName() + ", which a series key is not made of", "Name a String,"
                        + " whole-number or enum attribute, or a LocalDate or LocalDateTime attribute with :year or"
                        + " :month", null);
            }
            if (named != null && !SeriesPeriod.dates(type)) {
                throw new SeqgenMappingException(where, "@SeqgenNumber(seriesBy) entry '" + entry + "' takes a"
                        + " period of attribute '" + attribute + "' of type " + type.getName(), "Take the"
                        + " period of a LocalDate or LocalDateTime attribute (the document's own date)", null);
            }
            parts.add(new Part(named == null ? attribute : attribute + ":" + period, attribute,
                    GeneratorSettings.quotedColumn(entity.getRecursiveProperty(attribute).getValue()),
                    named == null ? Kind.VALUE : Kind.PERIOD, named, type,
                    type.isEnum() ? enumType(mapped, attribute) : null));
        }
        // A series shared by schema-per-tenant tenants reads no rows: it starts at its sequence's initial value.
        return parts.isEmpty() ? null : new NumberSeries(parts, where, annotation.perTenant() || !schemaPerTenant);
    }

    /** The series of an id where each tenant has a schema or database of its own: one per tenant. */
    static NumberSeries perSchemaTenant(String where) {
        return new NumberSeries(List.of(SCHEMA_TENANT), where, true);
    }

    /** The key of an entity's series; IllegalArgumentException naming entity, attribute and value if invalid. */
    Key keyOf(SharedSessionContractImplementor session, Object entity, String sequence) {
        List<String> texts = new ArrayList<>(parts.size());
        List<Object> values = new ArrayList<>(parts.size());
        EntityPersister persister = null;
        for (Part part : parts) {
            boolean tenant = isTenant(part);
            if (!tenant && persister == null) {
                persister = session.getEntityPersister(null, entity);
            }
            Object value = tenant ? session.getTenantIdentifierValue()
                    : persister.getPropertyValue(entity, part.attribute());
            if (value == null) {
                throw badKey(part, null, tenant ? "the session has no tenant identifier" : "the attribute is null");
            }
            String text = text(part, value);
            if (text.contains("/")) {
                throw badKey(part, value, "a part of a series key cannot hold '/'");
            }
            texts.add(text);
            values.add(value);
        }
        try {
            String key = String.join("/", texts);
            SequenceRegistry.seriesRow(sequence, key);
            return new Key(key, List.copyOf(texts), List.copyOf(values), schemaTenant(values));
        } catch (SequenceConfigurationException e) {
            List<String> described = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                described.add((isTenant(parts.get(i)) ? "tenant '" : "attribute '" + parts.get(i).attribute()
                        + "' = '") + values.get(i) + "'");
            }
            throw new IllegalArgumentException("seqgen: " + where + ": the series key of entity "
                    + session.getEntityPersister(null, entity).getEntityName() + " cannot be made from "
                    + String.join(", ", described) + ": " + e.getMessage(), e);
        }
    }

    /** The key a valid key's text names ({@code acme/2026}, a period as its first day); fails naming a bad part. */
    Key keyOf(String text, Function<String, Object> tenantOf) {
        List<String> texts = List.of(text.split("/", -1));
        List<Object> values = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            Object value;
            try {
                value = switch (part.kind()) {
                    case TENANT, SCHEMA -> tenantOf.apply(texts.get(i));
                    case PERIOD -> YearMonth.parse(part.period() == SeriesPeriod.YEAR ? texts.get(i) + "-01"
                            : texts.get(i)).atDay(1);
                    case VALUE -> valueOf(part.type(), texts.get(i));
                };
            } catch (RuntimeException e) {
                value = null;
            }
            String written = value == null ? null : text(part, value);
            if (!texts.get(i).equals(written)) {
                throw new IllegalArgumentException("its part " + (i + 1) + ", '" + texts.get(i) + "', is not "
                        + (isTenant(part) ? "a tenant identifier"
                                : part.kind() == Kind.PERIOD ? (part.period() == SeriesPeriod.YEAR ? "a year, as 2026"
                                        : "a month, as 2026-03") + ", of attribute '" + part.attribute() + "'"
                                : "a value of attribute '" + part.attribute() + "' (" + part.type().getSimpleName()
                                        + ")"));
            }
            values.add(value);
        }
        return new Key(text, texts, List.copyOf(values), schemaTenant(values));
    }

    private @Nullable Object schemaTenant(List<Object> values) {
        int schema = parts.indexOf(SCHEMA_TENANT);
        return schema < 0 ? null : values.get(schema);
    }

    private static String text(Part part, Object value) {
        return part.kind() == Kind.PERIOD ? part.period().keyPart(value)
                : value instanceof Enum<?> constant ? constant.name() : value.toString();
    }

    private static boolean isTenant(Part part) {
        return part.kind() == Kind.TENANT || part.kind() == Kind.SCHEMA;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object valueOf(Class<?> type, String text) {
        return type.isEnum() ? Enum.valueOf((Class<? extends Enum>) type, text)
                : WHOLE_NUMBERS.getOrDefault(type, string -> string).apply(text);
    }

    private IllegalArgumentException badKey(Part part, @Nullable Object value, String problem) {
        String attribute = part.kind() == Kind.TENANT ? "the tenant (@TenantId '" + part.attribute() + "')"
                : part.kind() == Kind.SCHEMA ? "the session's tenant" : "attribute '" + part.attribute() + "'";
        return new IllegalArgumentException("seqgen: " + where + ": the series key cannot be made from " + attribute
                + (value == null ? "" : ", value '" + value + "'") + ": " + problem + "; nothing was inserted");
    }

    /** The attribute of the entity's class (or a superclass) annotated {@code @TenantId}, or null. */
    private static @Nullable String tenantAttribute(Class<?> type) {
        return members(type).filter(member -> ((AnnotatedElement) member).isAnnotationPresent(TenantId.class))
                .map(member -> member instanceof Field ? member.getName()
                        : member.getName().startsWith("get") && member.getName().length() > 3
                                ? Character.toLowerCase(member.getName().charAt(3)) + member.getName().substring(4)
                                : null)
                .filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** How an enum attribute is stored: {@code @Enumerated(STRING)} by name, otherwise by ordinal. */
    private static EnumType enumType(Class<?> type, String attribute) {
        String getter = "get" + Character.toUpperCase(attribute.charAt(0)) + attribute.substring(1);
        return members(type).filter(member -> member.getName().equals(member instanceof Field ? attribute : getter))
                .map(member -> ((AnnotatedElement) member).getAnnotation(Enumerated.class)).filter(Objects::nonNull)
                .findFirst().map(Enumerated::value).orElse(EnumType.ORDINAL);
    }

    /** The fields, then the methods, of a class and its superclasses, nearest first. */
    private static Stream<Member> members(Class<?> type) {
        return Stream.<Class<?>>iterate(type, c -> c != null && c != Object.class, Class::getSuperclass)
                .flatMap(c -> Stream.concat(Arrays.stream(c.getDeclaredFields()),
                        Arrays.stream(c.getDeclaredMethods())));
    }
}
