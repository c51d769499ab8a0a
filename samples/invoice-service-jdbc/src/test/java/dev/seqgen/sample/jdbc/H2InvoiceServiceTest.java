package dev.seqgen.sample.jdbc;

import org.junit.jupiter.api.DisplayName;

/** The suite on the embedded H2 database the application starts with by default. */
@DisplayName("invoice service (spring data jdbc) on h2")
class H2InvoiceServiceTest extends InvoiceServiceHttpTest {
}
