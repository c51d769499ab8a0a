package dev.seqgen.sample;

import org.junit.jupiter.api.DisplayName;

/** The suite on the embedded H2 database the application starts with by default. */
@DisplayName("order service on h2")
class H2OrderServiceTest extends OrderServiceHttpTest {
}
