package dev.seqgen.boot;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.seqgen.testing.ArchitectureRules;

/** The starter (with core beside it) keeps the architecture of CONTRIBUTING.md (see {@link ArchitectureRules}). */
@AnalyzeClasses(packages = "dev.seqgen", importOptions = ArchitectureRules.MainCodeOnly.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule packages = ArchitectureRules.NO_PACKAGE_CYCLES_BUT_THE_NAMED;

    @ArchTest
    static final ArchRule frontEnds = ArchitectureRules.FRONT_ENDS_DO_NOT_TEST_A_STORES_CLASS;

    @ArchTest
    static final ArchRule publicTypes = ArchitectureRules.PUBLIC_TYPES_ONLY_WHERE_NEEDED;
}
