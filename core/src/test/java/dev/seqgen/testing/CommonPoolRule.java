package dev.seqgen.testing;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.BaseStream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * No code of seqgen, main or test, runs a task on the JVM-wide common fork-join pool: no {@code CompletableFuture}
 * {@code ...Async} call without an executor, no {@code ForkJoinPool.commonPool()}, no parallel stream. seqgen's
 * background work and its callers block (on a store, a gate, a lock), and one blocked task in that pool starves
 * every other user of it; on JDK 25 {@code CompletableFuture} uses the pool even when its parallelism is 1. Tests
 * start their background tasks with {@link Concurrently#OWN_THREAD}.
 */
public final class CommonPoolRule {

    /** The rule, for a module's {@code @ArchTest}. */
    public static final ArchRule NO_TASK_ON_THE_COMMON_POOL = noClasses().should()
            .callMethodWhere(new DescribedPredicate<JavaCall<?>>("a task on the common fork-join pool") {
                @Override
                public boolean test(JavaCall<?> call) {
                    JavaClass owner = call.getTargetOwner();
                    String name = call.getName();
                    if (owner.isEquivalentTo(CompletableFuture.class) && name.endsWith("Async")) {
                        return call.getTarget().getRawParameterTypes().stream()
                                .noneMatch(type -> type.isAssignableTo(Executor.class));
                    }
                    return owner.isEquivalentTo(ForkJoinPool.class) && name.equals("commonPool")
                            || owner.isAssignableTo(java.util.Collection.class) && name.equals("parallelStream")
                            || owner.isAssignableTo(BaseStream.class) && name.equals("parallel");
                }
            })
            .because("a blocked task on the common pool starves every other task of the JVM;"
                    + " give it an executor (tests: Concurrently.OWN_THREAD)");

    private CommonPoolRule() {
    }
}
