package dev.seqgen.boot;

import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import dev.seqgen.testing.CommonPoolRule;

/** The starter's and core's main and test code start no task on the common fork-join pool (see {@link CommonPoolRule}). */
@AnalyzeClasses(packages = "dev.seqgen")
class NoTaskOnTheCommonPoolTest {

    @ArchTest
    static final ArchRule rule = CommonPoolRule.NO_TASK_ON_THE_COMMON_POOL;
}
