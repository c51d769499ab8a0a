package dev.seqgen.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when the database server it needs cannot be found: it is skipped with the reason, or it
 * fails when {@code SEQGENTEST_REQUIRE_DATABASES=true} (as in CI), so CI can never pass by skipping. Needs
 * nothing but JUnit, so every module's tests can use it.
 */
public final class Servers {

    private Servers() {
    }

    /** Whether tests must fail rather than skip when a database server cannot be found. */
    public static boolean required() {
        return Boolean.parseBoolean(System.getenv("SEQGENTEST_REQUIRE_DATABASES"));
    }

    /** Skips the test with the reason, or fails it when servers are required. */
    public static void missing(String reason) {
        if (required()) {
            Assertions.fail(reason + " (SEQGENTEST_REQUIRE_DATABASES=true: a missing server is a failure)");
        }
        Assumptions.abort(reason);
    }
}
