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
import org.hibernate.jdbc.ReturningWork;

import java.lang.annotation.Annotation;
import java.lang.reflect.Member;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What seqgen's two Hibernate 7 generators share, {@link SeqgenIdGenerator} for ids and
 * {@link SeqgenNumberGenerator} for other attributes: a before-execution generator of inserts that Hibernate
 * initializes with the annotation, which checks that the attribute is {@code long}/{@code Long} or
 * {@code int}/{@code Integer}, resolves the settings and registers the sequence with seqgen's service without
 * I/O, adds seqgen's table to Hibernate's schema, and then takes each value in the session's transaction for SYNC
 * or from the JVM-wide sequence otherwise; a subclass says what its attribute is, checks what else it needs and
 * names the sequence.
 *
 * <p>Each concrete generator declares {@code implements AnnotationBasedGenerator<ItsAnnotation>} itself again,
 * although it inherits the interface from here: some Hibernate releases (7.4.1 among them) find the annotation type
 * a generator takes only among the interfaces its own class declares ({@code Class.getGenericInterfaces()}), not
 * among its superclasses', and otherwise fail every mapping with "Could not find implementing interface".
 * {@code GeneratorContractTest} keeps every generator in this package declaring it.
 *
 * @param <A> the annotation the generator is declared by
 */
abstract class AbstractSeqgenGenerator<A extends Annotation> implements BeforeExecutionGenerator,
        AnnotationBasedGenerator<A>, ExportableProducer {

    private static final long serialVersionUID = 1L;

    /** The generator's class name, for {@link #toString()}. */
    private final String generator;
    /** What the generated attribute is, for messages: {@code "id property"}, {@code "property"}. */
    private final String attribute;
    /** Set by the registry service when it starts (session-factory start-up or first value); then final. */
    private transient volatile @Nullable Sequence sequence;
    /** Takes a SYNC value on the session's connection; null for the other strategies; set before sequence. */
    private transient volatile @Nullable ReturningWork<Long> inSessionTransaction;
    private transient @Nullable SeqgenRegistryService service;
    /** The service's flush reservations, for a SYNC number that reserves at flush; null otherwise. */
    private transient @Nullable FlushReservations flushReservations;
    /** The sequence this generator registered for; opened at the first value. */
    private @Nullable String sequenceName;
    private boolean sync;
    /** Whether the attribute is {@code int}/{@code Integer} rather than {@code long}/{@code Long}. */
    private boolean intValue;
    /** How a number's sequence splits into series; null for one series (and for ids). */
    private @Nullable NumberSeries series;
    /** The pattern of a formatted number in a String attribute; null for a numeric attribute. */
    private @Nullable NumberPattern pattern;
    /** The sequence's settings, which its series share. */
    private @Nullable SequenceSettings settings;
    /** The generator's series and table, as the service adopts from it; set with the settings. */
    private SeqgenRegistryService.@Nullable SeriesTable seriesTable;

    /**
     * Creates an unconfigured generator; Hibernate then calls {@link #initialize}.
     *
     * @param generator the generator's class name, for {@link #toString()}
     * @param attribute what the generated attribute is, for messages
     */
    AbstractSeqgenGenerator(String generator, String attribute) {
        this.generator = generator;
        this.attribute = attribute;
    }

    /**
     * Resolves the sequence of the attribute Hibernate is creating this generator for (Hibernate 7.3 and later).
     *
     * @param annotation the annotation on the attribute (on an id, or its class or package)
     * @param context the attribute, its entity and the service registry
     * @throws MappingException if the attribute type is not {@code long}/{@code Long}/{@code int}/{@code Integer},
     *     a setting breaks a rule, or the sequence could not be created; the message names the entity and
     *     property
     */
    @Override
    public void initialize(A annotation, GeneratorCreationContext context) {
        configure(annotation, context);
    }

    /**
     * Resolves the sequence; the form Hibernate 7.1 and 7.2 call.
     *
     * @param annotation the annotation on the attribute (on an id, or its class or package)
     * @param member the attribute
     * @param context the attribute, its entity and the service registry
     * @throws MappingException as {@code initialize(annotation, context)}
     * @deprecated only for Hibernate before 7.3
     */
    @Override
    @Deprecated
    @SuppressWarnings("removal")
    public void initialize(A annotation, Member member, GeneratorCreationContext context) {
        configure(annotation, context);
    }

    /**
     * The type of the generated attribute, as Hibernate maps it.
     *
     * @param context the attribute, its entity and the service registry
     * @return the attribute's type
     */
    abstract Class<?> generatedType(GeneratorCreationContext context);

    /**
     * The error for an attribute that is not {@code long}/{@code Long}/{@code int}/{@code Integer}.
     *
     * @param where the entity and property, for the message
     * @param type the attribute's type
     * @return the error, naming what to do
     */
    abstract SeqgenMappingException unsupportedType(String where, Class<?> type);

    /**
     * Checks what else the attribute needs, and returns the name of its sequence.
     *
     * @param annotation the annotation on the attribute
     * @param context the attribute, its entity and the service registry
     * @param property the attribute's name
     * @param where the entity and property, for messages
     * @return the sequence name
     * @throws SeqgenMappingException if the attribute cannot have this generator
     */
    abstract String sequenceName(A annotation, GeneratorCreationContext context, String property, String where);

    private void configure(A annotation, GeneratorCreationContext context) {
        String entity = context.getPersistentClass().getEntityName();
        String property = context.getProperty().getName();
        String where = "entity " + entity + ", " + attribute + " '" + property + "'";

        Class<?> type = generatedType(context);
        intValue = type == Integer.class || type == int.class;
        String format = format(annotation);
        if (type == String.class && !format.isEmpty()) {
            // A formatted number: the counter underneath is a long, as for any number.
        } else if (!intValue && type != Long.class && type != long.class) {
            throw unsupportedType(where, type);
        } else if (!format.isEmpty()) {
            throw new SeqgenMappingException(where, "@SeqgenNumber(format = \"" + format + "\") formats a number"
                    + " into a String attribute, and this attribute is " + type.getName(), "Declare the attribute"
                    + " String to receive the formatted number, or remove format", null);
        }

        String name = sequenceName(annotation, context, property, where);
        where += ", sequence '" + name + "'";
        SeqgenRegistryService service = serviceOf(context, where);
        this.service = service;
        try {
            // No I/O here: Hibernate may be reading the mappings without a database (see SeqgenRegistryService).
            SequenceSettings settings = service.settingsFor(annotation, name, intValue, where);
            sync = settings.strategy() == Strategy.SYNC;
            // Values already in the column (an entity table or an invoice table adopting seqgen, a change of
            // store) are adopted: the sequence starts above the highest, and the column is checked for assigned
            // values.
            sequenceName = name;
            this.settings = settings;
            series = series(annotation, context, where);
            pattern = format.isEmpty() ? null
                    : NumberPattern.of(format, series == null ? List.of() : series.partNames(), where);
            if (reservedAtFlush() != null) {
                flushReservations = service.numbersAtFlush();
            }
            Registration registration = Registration.of(name, settings, context, where, this::started);
            seriesTable = new SeqgenRegistryService.SeriesTable(series, registration.table(), registration.column(),
                    pattern, where);
            if (series != null || (pattern != null && !schemaPerTenant(context))) {
                // Read at the opening of each series, or of the sequence for formatted numbers of one series, with
                // the other tables of the sequence (see SeqgenRegistryService.openSeries). A series shared by all
                // tenants that have schemas of their own reads nothing (NumberSeries), nor do its formatted numbers.
                service.registerTable(name, seriesTable);
            }
            // A text column's numbers are read back with the pattern (registerTable above), not as the highest
            // number of a numeric column when the sequence opens.
            // A tenant's rows are not in the tables the default connection sees (schema or database per tenant):
            // they are read through the tenant's connection at its series' first value, not at start-up.
            // A generator numbered in series never takes a value of the sequence's own row, which is then not made.
            Registration checked = pattern == null && !schemaPerTenant(context) ? registration
                    : registration.withoutTable();
            service.register(series != null ? checked.inSeriesOnly() : checked);
        } catch (SequenceException e) {
            throw new SeqgenMappingException(where, e.getMessage(), null, e);
        }
    }

    /**
     * How the attribute's sequence splits into series, checked now; null (the default) for one series.
     *
     * @param annotation the annotation on the attribute
     * @param context the attribute, its entity and the service registry
     * @param where the entity, property and sequence, for messages
     * @return the series, or null
     * @throws SeqgenMappingException if the series cannot be made of what the annotation names
     */
    @Nullable NumberSeries series(A annotation, GeneratorCreationContext context, String where) {
        return null;
    }

    /**
     * Whether each tenant has a schema or database of its own: Hibernate has a {@code MultiTenantConnectionProvider}.
     * Then ids and numbers are counted per tenant, and each tenant's rows are read through its own connection.
     *
     * @param context the attribute, its entity and the service registry
     * @return whether tenants have schemas or databases of their own
     */
    static boolean schemaPerTenant(GeneratorCreationContext context) {
        return context.getServiceRegistry().getService(MultiTenantConnectionProvider.class) != null;
    }

    /**
     * The pattern of a formatted number ({@link SeqgenNumber#format()}), or empty (the default) for a number.
     *
     * @param annotation the annotation on the attribute
     * @return the pattern, or empty
     */
    String format(A annotation) {
        return "";
    }

    /**
     * Returns seqgen's service of the registry a generator is created in: the generator finds it here, where it
     * is configured, and only a generator does.
     *
     * @throws MappingException naming {@code where} if the service is not registered
     */
    private static SeqgenRegistryService serviceOf(GeneratorCreationContext context, String where) {
        SeqgenRegistryService service = context.getServiceRegistry().getService(SeqgenRegistryService.class);
        if (service == null) {
            throw new SeqgenMappingException(where, "seqgen's Hibernate service is not registered; seqgen-core"
                    + " registers it through META-INF/services/org.hibernate.service.spi.ServiceContributor",
                    "Keep that file in the application's jar, or call"
                    + " new SeqgenIntegrator().contribute(standardServiceRegistryBuilder)", null);
        }
        return service;
    }

    /**
     * Adds seqgen's tables to Hibernate's schema (see {@link SeqgenTable}); Hibernate calls
     * this right after {@code initialize}. No I/O.
     *
     * @param database the relational model Hibernate is building
     */
    @Override
    public void registerExportables(Database database) {
        String table = service == null ? null : service.exportedTable(database.getDialect());
        if (table != null) {
            SeqgenTable.register(database, table);
        }
    }

    private void started(Sequence started) {
        inSessionTransaction = sync ? started::nextInTransaction : null;
        sequence = started;
    }

    /**
     * Returns the next value of the sequence: taken in the session's transaction for SYNC, from the shared
     * sequence otherwise. Hibernate calls it for an id at {@code persist()}, for another attribute immediately
     * before the entity's INSERT.
     *
     * @return a {@code Long}, or an {@code Integer} for {@code int} attributes
     * @throws dev.seqgen.SequenceUnavailableException if no value could be had within the acquire timeout
     * @throws dev.seqgen.SequenceExhaustedException if the maximum value has been handed out
     */
    @Override
    public Object generate(SharedSessionContractImplementor session, Object owner, @Nullable Object currentValue,
            EventType eventType) {
        NumberSeries.Key key = series == null ? null : series.keyOf(session, owner, sequenceName);
        Sequence started = key == null ? plain() : seriesOf(key);
        long value;
        if (!sync) {
            value = started.next();
        } else if (reservesAtFlush()) {
            value = flushReservations.next(session, started);
        } else if (key == null) {
            value = session.doReturningWork(inSessionTransaction);
        } else {
            value = session.doReturningWork(started::nextInTransaction);
        }
        if (pattern != null) {
            return pattern.format(key == null ? List.of() : key.parts(), value);
        }
        return intValue ? (Object) Math.toIntExact(value) : (Object) value;
    }

    /**
     * The started sequence, opened first if this is its first use (a start-up without JDBC metadata access).
     *
     * @return the sequence this generator takes its values from
     */
    Sequence started() {
        Sequence started = sequence;
        if (started == null) {
            service.open(sequenceName);
            started = sequence;
        }
        return started;
    }

    /**
     * The sequence an entity's value comes from: the generator's sequence, or the entity's series of it, opened
     * on its first use in this generator after the rows its table already holds for that series were adopted.
     *
     * @param session the session inserting the entity
     * @param entity the entity
     * @return the sequence or series
     * @throws IllegalArgumentException naming the entity, attribute and value if its series key cannot be made
     */
    Sequence sequenceFor(SharedSessionContractImplementor session, Object entity) {
        NumberSeries numbered = series;
        return numbered == null ? plain() : seriesOf(numbered.keyOf(session, entity, sequenceName));
    }

    private Sequence seriesOf(NumberSeries.Key key) {
        // No series is kept here: the registry holds the open ones (see SeqgenRegistryService.seriesIfOpen).
        Sequence open = service.seriesIfOpen(sequenceName, key);
        return open != null ? open : service.openSeries(sequenceName, settings, key, seriesTable);
    }

    /** The generator's sequence; a formatted number's column read back when it opens (see configure). */
    private Sequence plain() {
        return started();
    }

    /**
     * Whether SYNC values are taken for a whole flush at once ({@link FlushReservations}); only where the
     * generator runs at flush, that is not for ids, which Hibernate generates one by one at {@code persist()}.
     *
     * @return false unless the subclass generates at flush
     */
    boolean reservesAtFlush() {
        return false;
    }

    /**
     * The sequence whose values this generator takes for a whole flush, for counting a flush's inserts.
     *
     * @return the sequence name, or null if this generator is not SYNC or does not generate at flush
     */
    @Nullable String reservedAtFlush() {
        return sync && reservesAtFlush() ? sequenceName : null;
    }

    /** @return {@link EventTypeSets#INSERT_ONLY}: the value is generated once, on insert */
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
