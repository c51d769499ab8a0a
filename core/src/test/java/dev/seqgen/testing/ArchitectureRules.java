package dev.seqgen.testing;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.properties.HasOwner;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import dev.seqgen.spi.SequenceStore;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Set;

/**
 * The architecture CONTRIBUTING.md describes, as rules a test keeps: packages without cycles but the two it names,
 * and front ends (the Hibernate generator, the Spring Boot starter) that ask a store through the SPI instead of
 * testing its class.
 */
public final class ArchitectureRules {

    /**
     * No package cycle among seqgen's packages except the two CONTRIBUTING.md names: the API and its store SPI
     * ({@code dev.seqgen.spi} speaks of {@code SequenceSettings}, {@code CounterKind} and the exceptions, the
     * registry holds stores), and the API and its metrics SPI (the registry creates trackers, trackers read
     * {@code Sequence}).
     */
    public static final ArchRule NO_PACKAGE_CYCLES_BUT_THE_NAMED = slices().matching("dev.(**)")
            .should().beFreeOfCycles()
            .ignoreDependency(inPackage("dev.seqgen.spi"), inPackage("dev.seqgen"))
            .ignoreDependency(inPackage("dev.seqgen.metrics"), inPackage("dev.seqgen"))
            .ignoreDependency(inPackage("dev.seqgen.metrics.micrometer"), inPackage("dev.seqgen"))
            .because("packages depend one way, but for the API and its two SPIs (CONTRIBUTING.md)");

    /**
     * The Hibernate generator and the starter never test whether a store is of some class: they ask it through
     * the SPI ({@code kind()}, {@code transactionType()}, {@code sqlTable()}), so a store of the application's or
     * of another module is served alike. A test is {@code instanceof}, or a store class's {@code Class} object
     * used in a code unit that tests classes ({@code X.class.isInstance(store)}, {@code cast},
     * {@code isAssignableFrom}, {@code store.getClass() == X.class}); naming a store class for a framework (Spring's
     * database initialization detector) or reading its constants is not a test.
     */
    public static final ArchRule FRONT_ENDS_DO_NOT_TEST_A_STORES_CLASS = ArchRuleDefinition.classes()
            .that().resideInAnyPackage("dev.seqgen.hibernate..", "dev.seqgen.boot..")
            .should(new ArchCondition<JavaClass>("not test whether a store is of a class") {
                @Override
                public void check(JavaClass javaClass, ConditionEvents events) {
                    for (JavaCodeUnit unit : javaClass.getCodeUnits()) {
                        unit.getInstanceofChecks().stream()
                                .filter(check -> isStoreClass(check.getRawType()))
                                .forEach(check -> events.add(SimpleConditionEvent.violated(check,
                                        javaClass.getName() + "." + unit.getName() + " tests whether a store is a " + check.getRawType().getSimpleName() + " (line " + check.getLineNumber() + "): ask the store through the SPI instead")));
                        boolean testsClasses = unit.getMethodCallsFromSelf().stream()
                                .anyMatch(call -> CLASS_TESTS.contains(call.getName()));
                        if (testsClasses) {
                            unit.getReferencedClassObjects().stream()
                                    .filter(reference -> isStoreClass(reference.getRawType()))
                                    .forEach(reference -> events.add(SimpleConditionEvent.violated(reference,
                                            javaClass.getName() + "." + unit.getName() + " tests a store's class"
                                            + " against " + reference.getRawType().getSimpleName() + ".class (line "
                                            + reference.getLineNumber() + "): ask the store through the SPI"
                                            + " instead")));
                        }
                    }
                }
            });

    /**
     * The Hibernate layer runs no SQL of its own, metadata queries included: every read of the database (a table's
     * highest id, a sequence's row, whether a column takes assigned values) goes through the store layer, which
     * reads on its own connection, or on one the Hibernate layer borrows from Hibernate and hands over without
     * using it. So no statement, result set or {@code DatabaseMetaData} in the layer, and no call to a
     * {@code Connection}'s methods (a query, a metadata read, a commit or rollback).
     */
    public static final ArchRule HIBERNATE_LAYER_RUNS_NO_SQL = ArchRuleDefinition.noClasses()
            .that().resideInAPackage("dev.seqgen.hibernate..")
            .should().dependOnClassesThat().areAssignableTo(Statement.class)
            .orShould().dependOnClassesThat().areAssignableTo(ResultSet.class)
            .orShould().dependOnClassesThat().areAssignableTo(DatabaseMetaData.class)
            .orShould().callMethodWhere(JavaCall.Predicates.target(HasOwner.Predicates.With.<JavaClass>owner(
                    JavaClass.Predicates.assignableTo(Connection.class))))
            .because("every database read goes through the store layer (CONTRIBUTING.md)");

    /**
     * The public types of seqgen's library modules: what users (the API, the annotations, the starter's
     * auto-configurations and properties) and store authors (the SPI) need. A type is public only when it is on
     * this list, so making one public is a decision this list records. Two are public for seqgen's own modules
     * only: {@code ApplicationTables} (the Hibernate layer's column check) and {@code JdbcDialect}, which users may
     * also pass to the JDBC stores' builders.
     */
    public static final Set<String> PUBLIC_TYPES = Set.of(
            "dev.seqgen.CloseReport", "dev.seqgen.CounterKind", "dev.seqgen.KeyOrder", "dev.seqgen.KeyRange",
            "dev.seqgen.SeqgenValue", "dev.seqgen.Sequence",
            "dev.seqgen.SequenceConfigurationException", "dev.seqgen.SequenceException",
            "dev.seqgen.SequenceExhaustedException", "dev.seqgen.SequenceRegistry", "dev.seqgen.SequenceSettings",
            "dev.seqgen.SequenceStats", "dev.seqgen.SequenceUnavailableException", "dev.seqgen.SeriesPeriod",
            "dev.seqgen.Setting",
            "dev.seqgen.Strategy", "dev.seqgen.Ticker",
            "dev.seqgen.boot.actuate.SeqgenEndpoint", "dev.seqgen.boot.actuate.SeqgenHealthIndicator",
            "dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration",
            "dev.seqgen.boot.autoconfigure.SeqgenProperties",
            "dev.seqgen.boot.autoconfigure.SeqgenSpannerAutoConfiguration",
            "dev.seqgen.boot.autoconfigure.SequenceRegistryCustomizer",
            "dev.seqgen.boot.autoconfigure.endpoint.SeqgenEndpointAutoConfiguration",
            "dev.seqgen.boot.autoconfigure.health.SeqgenHealthContributorAutoConfiguration",
            "dev.seqgen.boot.autoconfigure.metrics.SeqgenMetricsAutoConfiguration",
            "dev.seqgen.boot.data.jdbc.SeqgenDataJdbcAutoConfiguration",
            "dev.seqgen.hibernate.ColumnRefusesAssignedValuesException", "dev.seqgen.hibernate.SeqgenGenerator",
            "dev.seqgen.hibernate.SeqgenHibernate", "dev.seqgen.hibernate.SeqgenIdGenerator",
            "dev.seqgen.hibernate.SeqgenIntegrator", "dev.seqgen.hibernate.SeqgenMappingException",
            "dev.seqgen.hibernate.SeqgenNumber", "dev.seqgen.hibernate.SeqgenNumberGenerator",
            "dev.seqgen.hibernate.SeqgenPooledOptimizer",
            "dev.seqgen.jdbc.ApplicationTables", "dev.seqgen.jdbc.JdbcDialect", "dev.seqgen.jdbc.JdbcSequenceStore",
            "dev.seqgen.jdbc.NativeSequenceStore",
            "dev.seqgen.metrics.SequenceMetricsTracker", "dev.seqgen.metrics.SequenceMetricsTrackerFactory",
            "dev.seqgen.metrics.micrometer.MicrometerMetricsTrackerFactory",
            "dev.seqgen.spanner.SpannerSequenceStore",
            "dev.seqgen.spi.Identifiers", "dev.seqgen.spi.ReservedRange", "dev.seqgen.spi.SequenceStore",
            "dev.seqgen.spi.SequenceStoreException");

    /** Public top-level types only where {@link #PUBLIC_TYPES} lists them. */
    public static final ArchRule PUBLIC_TYPES_ONLY_WHERE_NEEDED = ArchRuleDefinition.classes()
            .that().resideInAPackage("dev.seqgen..").and().arePublic().and().areTopLevelClasses()
            .should(new ArchCondition<JavaClass>("be listed in ArchitectureRules.PUBLIC_TYPES") {
                @Override
                public void check(JavaClass javaClass, ConditionEvents events) {
                    if (!PUBLIC_TYPES.contains(javaClass.getName())) {
                        events.add(SimpleConditionEvent.violated(javaClass, javaClass.getName() + " is public but"
                                + " not one of the types users or store authors need: make it package-private, or"
                                + " add it to ArchitectureRules.PUBLIC_TYPES"));
                    }
                }
            });

    private ArchitectureRules() {
    }

    /**
     * Imports main code only: leaves out test classes both as a module's {@code test-classes} folder and as the
     * {@code -tests.jar} another module depends on (a reactor {@code verify} resolves core's test-jar as that
     * jar, where {@link ImportOption.DoNotIncludeTests} alone would let the test fixtures in).
     */
    public static final class MainCodeOnly implements ImportOption {

        private final ImportOption tests = new ImportOption.DoNotIncludeTests();

        @Override
        public boolean includes(Location location) {
            return tests.includes(location) && !location.contains("-tests.jar");
        }
    }

    /** Methods that test an object's class: {@code Class}'s, and {@code getClass()} for a comparison. */
    private static final Set<String> CLASS_TESTS = Set.of("isInstance", "cast",
            "isAssignableFrom", "getClass");

    private static boolean isStoreClass(JavaClass type) {
        return type.isAssignableTo(SequenceStore.class) && !type.isEquivalentTo(SequenceStore.class);
    }

    private static DescribedPredicate<JavaClass> inPackage(String name) {
        return DescribedPredicate.describe("in package " + name, type -> type.getPackageName().equals(name));
    }
}
