package dev.seqgen.testing;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import dev.seqgen.spi.SequenceStore;

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
     * of another module is served alike.
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
                    }
                }
            });

    /**
     * The Hibernate layer runs no SQL of its own: every read of the database (a table's highest id, a sequence's
     * row) goes through a store, which reads on its own connection, never in a caller's transaction.
     */
    public static final ArchRule HIBERNATE_LAYER_RUNS_NO_SQL = ArchRuleDefinition.noClasses()
            .that().resideInAPackage("dev.seqgen.hibernate..")
            .should().dependOnClassesThat().areAssignableTo(java.sql.Statement.class)
            .orShould().dependOnClassesThat().areAssignableTo(java.sql.ResultSet.class)
            .because("every database read goes through a store (CONTRIBUTING.md)");

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

    private static boolean isStoreClass(JavaClass type) {
        return type.isAssignableTo(SequenceStore.class) && !type.isEquivalentTo(SequenceStore.class);
    }

    private static DescribedPredicate<JavaClass> inPackage(String name) {
        return DescribedPredicate.describe("in package " + name, type -> type.getPackageName().equals(name));
    }
}
