package dev.seqgen.testing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * Each rule of {@link ArchitectureRules} fires on a violation planted for it (test classes in
 * {@code dev.seqgen.hibernate.planted} and {@code dev.seqgen.planted}, which the main code's checks never import):
 * a rule nobody has seen fail might check nothing. The front-end and no-SQL rules are also shown quiet on planted code
 * that keeps them, and the public-types rule on two listed public types.
 */
class ArchitectureRulesSeenToFailTest {

    private static final JavaClasses HIBERNATE_LAYER = new ClassFileImporter()
            .importPackages("dev.seqgen.hibernate.planted");

    private static final JavaClasses KEPT = new ClassFileImporter()
            .importPackages("dev.seqgen.hibernate.planted.clean");

    private static final JavaClasses CYCLE = new ClassFileImporter().importPackages("dev.seqgen.planted.cycle");

    @Test
    void theFrontEndRuleSeesInstanceof() {
        assertThatThrownBy(() -> check(ArchitectureRules.FRONT_ENDS_DO_NOT_TEST_A_STORES_CLASS, HIBERNATE_LAYER))
                .hasMessageContaining("TestsAStoreClass.isJdbc tests whether a store is a JdbcSequenceStore");
    }

    @Test
    void theFrontEndRuleSeesATestByClassObject() {
        assertThatThrownBy(() -> check(ArchitectureRules.FRONT_ENDS_DO_NOT_TEST_A_STORES_CLASS, HIBERNATE_LAYER))
                .hasMessageContaining("TestsAStoreClassByItsClassObject.isNative tests a store's class against"
                        + " NativeSequenceStore.class")
                .hasMessageContaining("TestsAStoreClassByItsClassObject.isNativeByName tests a store's class");
    }

    @Test
    void theFrontEndRuleLetsAFrontEndAskTheSpiAndNameAStoreClass() {
        assertThatCode(() -> check(ArchitectureRules.FRONT_ENDS_DO_NOT_TEST_A_STORES_CLASS, KEPT))
                .doesNotThrowAnyException();
    }

    @Test
    void theSqlRuleSeesAStatementInTheHibernateLayer() {
        assertThatThrownBy(() -> check(ArchitectureRules.HIBERNATE_LAYER_RUNS_NO_SQL, HIBERNATE_LAYER))
                .hasMessageContaining("RunsSql").hasMessageContaining("java.sql.Statement");
    }

    @Test
    void theSqlRuleSeesAMetadataReadInTheHibernateLayer() {
        assertThatThrownBy(() -> check(ArchitectureRules.HIBERNATE_LAYER_RUNS_NO_SQL, HIBERNATE_LAYER))
                .hasMessageContaining("ReadsMetadata.database(java.sql.Connection)> calls method"
                        + " <java.sql.Connection.getMetaData()>")
                .hasMessageContaining("ReadsMetadata.isIdentityColumnPresent(java.sql.Connection)> calls method"
                        + " <java.sql.DatabaseMetaData.getColumns(");
    }

    @Test
    void theSqlRuleLetsTheHibernateLayerAskAStore() {
        assertThatCode(() -> check(ArchitectureRules.HIBERNATE_LAYER_RUNS_NO_SQL, KEPT)).doesNotThrowAnyException();
    }

    @Test
    void theCycleRuleSeesTwoPackagesThatDependOnEachOther() {
        assertThatThrownBy(() -> check(ArchitectureRules.NO_PACKAGE_CYCLES_BUT_THE_NAMED, CYCLE))
                .hasMessageContaining("Cycle detected").hasMessageContaining("seqgen.planted.cycle.a")
                .hasMessageContaining("seqgen.planted.cycle.b");
    }

    @Test
    void thePublicTypesRuleSeesAPublicTypeThatIsNotListed() {
        assertThatThrownBy(() -> check(ArchitectureRules.PUBLIC_TYPES_ONLY_WHERE_NEEDED, CYCLE))
                .hasMessageContaining("dev.seqgen.planted.cycle.a.A is public but not one of the types")
                .hasMessageContaining("dev.seqgen.planted.cycle.b.B is public");
    }

    @Test
    void thePublicTypesRuleLetsAListedTypeBePublic() {
        assertThatCode(() -> check(ArchitectureRules.PUBLIC_TYPES_ONLY_WHERE_NEEDED,
                new ClassFileImporter().importClasses(dev.seqgen.Sequence.class, dev.seqgen.spi.SequenceStore.class)))
                .doesNotThrowAnyException();
    }

    private static void check(ArchRule rule, JavaClasses classes) {
        rule.check(classes);
    }
}
