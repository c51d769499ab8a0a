package dev.seqgen.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class that is slow by its nature: it starts child JVMs, cuts connections through a TCP proxy, or
 * model-checks interleavings; or one test method that is, because it takes about a hundred thousand values through
 * a real store. {@code ./mvnw verify} runs them all (CI does); a quick loop while editing leaves them out with
 * {@code -DexcludedGroups=slow}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(Slow.TAG)
public @interface Slow {

    /** The JUnit tag: {@code -DexcludedGroups=slow} leaves these tests out, {@code -Dgroups=slow} runs only them. */
    String TAG = "slow";
}
