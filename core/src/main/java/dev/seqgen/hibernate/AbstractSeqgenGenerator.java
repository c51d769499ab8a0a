package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceException;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.hibernate.GeneratorSettings.Registration;
import org.hibernate.boot.model.relational.Database;
import org.hibernate.boot.model.relational.ExportableProducer;
import org.hibernate.MappingException;
import org.hibernate.engine.jdbc.connections.spi.MultiTenantConnectionProvider;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import java.lang.annotation.Annotation;
import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What seqgen's Hibernate generators share (docs/design.md#generator-values). Subclasses declare
 * {@code implements AnnotationBasedGenerator<ItsAnnotation>} again: Hibernate 7.4.1 seeks it in their own interfaces.
 */
abstract class AbstractSeqgenGenerator<A extends Annotation> implements BeforeExecutionGenerator,
        AnnotationBasedGenerator<A>, ExportableProducer {

    private static final long serialVersionUID = 1L;

    private final String generator;
    /** For messages: {@code "id property"}, {@code "property"}. */
    private final String attribute;
    /** Set by the service when it opens the sequence; then final. */
    private transient volatile @Nullable Sequence sequence;
    private transient @Nullable SeqgenRegistryService service;
    private transient @Nullable FlushReservations flushReservations;
    private @Nullable String sequenceName;
    private boolean sync;
    private boolean intValue;
    /** Null for one series, and for a numeric attribute. */
    private @Nullable NumberSeries series;
    private @Nullable NumberPattern pattern;
    private @Nullable SequenceSettings settings;
    private SeqgenRegistryService.@Nullable SeriesTable seriesTable;

    AbstractSeqgenGenerator(String generator, String attribute) {
        this.generator = generator;
        this.attribute = attribute;
    }

    /** Resolves the attribute's sequence (Hibernate 7.3+), no I/O; throws {@link MappingException} naming it. */
    @Override
    public void initialize(A annotation, GeneratorCreationContext context) {
        String entity = context.getPersistentClass().getEntityName();
        String property = context.getProperty().getName();
        String where = "entity " + entity + ", " + attribute + " '" + property + "'";
        Class<?> type = generatedType(context);
        intValue = type == Integer.class || type == int.class;
        boolean numeric = intValue || type == Long.class || type == long.class;
        String format = format(annotation);
        if (!numeric && (type != String.class || format.isEmpty())) {
            throw unsupportedType(where, type);
        }
        if (numeric && !format.isEmpty()) {
            throw new SeqgenMappingException(where, "@SeqgenNumber(format = \"" + format + "\") formats a number"
                    + " into a String attribute, and this attribute is " + type.getName(), "Declare the attribute"
                    + " String to receive the formatted number, or remove format", null);
        }
        String name = sequenceName(annotation, context, property, where);
        where += ", sequence '" + name + "'";
        service = context.getServiceRegistry().getService(SeqgenRegistryService.class);
        if (service == null) {
            throw new SeqgenMappingException(where, "seqgen's Hibernate service is not registered; seqgen-core"
                    + " registers it through META-INF/services/org.hibernate.service.spi.ServiceContributor",
                    "Keep that file in the application's jar, or call"
                    + " new SeqgenIntegrator().contribute(standardServiceRegistryBuilder)", null);
        }
        try {
            // No I/O: Hibernate may be reading the mappings without a database.
            settings = service.generatorSettings.resolve(annotation, name, intValue, where);
            sync = settings.strategy() == Strategy.SYNC;
            sequenceName = name;
            series = series(annotation, context, where);
            pattern = format.isEmpty() ? null
                    : NumberPattern.of(format, series == null ? List.of() : series.partNames(), where);
            if (reservedAtFlush() != null) {
                flushReservations = service.numbersAtFlush();
            }
            Registration registration = Registration.of(name, settings, context, where, opened -> sequence = opened);
            seriesTable = new SeqgenRegistryService.SeriesTable(series, registration.table(), registration.column(),
                    pattern, where);
            if (series != null || (pattern != null && !schemaPerTenant(context))) {
                // Read when each series (or a formatted sequence) opens; not where tenants share a series.
                service.registerTable(name, seriesTable);
            }
            // Not read as a numeric column: formatted numbers (above), a tenant's rows (at its series' first value).
            Registration checked = pattern == null && !schemaPerTenant(context) ? registration
                    : registration.withoutTable();
            service.register(series != null ? checked.inSeriesOnly() : checked);
        } catch (SequenceException e) {
            throw new SeqgenMappingException(where, e.getMessage(), null, e);
        }
    }

    /** @deprecated the form Hibernate 7.1 and 7.2 call */
    @Override
    @Deprecated
    @SuppressWarnings("removal")
    public void initialize(A annotation, Member member, GeneratorCreationContext context) {
        initialize(annotation, context);
    }

    abstract Class<?> generatedType(GeneratorCreationContext context);

    abstract SeqgenMappingException unsupportedType(String where, Class<?> type);

    /** Checks what else the attribute needs, and returns the name of its sequence. */
    abstract String sequenceName(A annotation, GeneratorCreationContext context, String property, String where);

    /** How the attribute's sequence splits into series, checked now; null (the default) for one series. */
    @Nullable NumberSeries series(A annotation, GeneratorCreationContext context, String where) {
        return null;
    }

    static boolean schemaPerTenant(GeneratorCreationContext context) {
        return context.getServiceRegistry().getService(MultiTenantConnectionProvider.class) != null;
    }

    /** The pattern of a formatted number ({@link SeqgenNumber#format()}), or empty (the default). */
    String format(A annotation) {
        return "";
    }

    /** Adds seqgen's table to Hibernate's schema ({@link SeqgenTable}); called after {@code initialize}. No I/O. */
    @Override
    public void registerExportables(Database database) {
        if (service != null) {
            service.exportTables(database);
        }
    }

    /**
     * Returns the next value (a {@code Long}, {@code Integer} or formatted {@code String}); throws
     * {@link dev.seqgen.SequenceUnavailableException} or {@link dev.seqgen.SequenceExhaustedException}.
     */
    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, @Nullable Object currentValue,
            EventType eventType) {
        NumberSeries.Key key = series == null ? null : series.keyOf(session, owner, sequenceName);
        Sequence started = key == null ? started() : seriesOf(key);
        long value = !sync ? started.next()
                : reservesAtFlush() ? flushReservations.next(session, started)
                : session.doReturningWork(started::nextInTransaction);
        if (pattern != null) {
            return pattern.format(key == null ? List.of() : key.parts(), value);
        }
        return intValue ? (Object) Math.toIntExact(value) : (Object) value;
    }

    /** The sequence, opened at its first use after a start-up without JDBC access. */
    private Sequence started() {
        Sequence started = sequence;
        if (started == null) {
            service.open(sequenceName, null);
            started = sequence;
        }
        return started;
    }

    /** The generator's sequence, or the entity's series of it; IllegalArgumentException if no key can be made. */
    Sequence sequenceFor(SharedSessionContractImplementor session, Object entity) {
        return series == null ? started() : seriesOf(series.keyOf(session, entity, sequenceName));
    }

    /** Not kept here: the registry holds the open series. */
    private Sequence seriesOf(NumberSeries.Key key) {
        Sequence open = service.seriesIfOpen(sequenceName, key);
        return open != null ? open : service.openSeries(sequenceName, settings, key, seriesTable);
    }

    /** Whether the generator runs at flush (not ids, generated at {@code persist()}), so SYNC reserves per flush. */
    boolean reservesAtFlush() {
        return false;
    }

    /** The sequence this generator reserves for a whole flush, or null if it is not SYNC or not run at flush. */
    @Nullable String reservedAtFlush() {
        return sync && reservesAtFlush() ? sequenceName : null;
    }

    @Override
    public EnumSet<EventType> getEventTypes() {
        return EventTypeSets.INSERT_ONLY;
    }

    @Override
    public String toString() {
        return generator + "[" + (sequence == null ? "unconfigured"
                : sequence.name() + ", " + sequence.strategy().name().toLowerCase(Locale.ROOT)) + "]";
    }
}
