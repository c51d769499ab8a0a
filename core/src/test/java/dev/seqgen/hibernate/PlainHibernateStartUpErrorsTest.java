package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.seqgen.testing.TestDatabase;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Start-up errors as a plain Hibernate user meets them (no Spring Boot failure analysis): what the session
 * factory's build throws is seqgen's {@link SeqgenMappingException} itself, with where, problem and action in its
 * message, not a chain of Hibernate's wrappers above it.
 */
class PlainHibernateStartUpErrorsTest {

    private static final String PREFIX = HibernateTesting.prefix("phs_");

    @Test
    void aMissingSequenceTableThatSeqgenMayNotCreateFailsTheBuildWithSeqgensMessageOnTop() {
        String missing = TestDatabase.uniqueTable();
        Throwable failure = catchThrowable(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX,
                missing, Map.of(SeqgenHibernate.SCHEMA_CREATE, "false"), NumberedInvoice.class).close());
        assertThat(failure).as("what the build threw").isInstanceOf(SeqgenMappingException.class)
                .hasMessageContaining(missing)
                .hasMessageContaining("NumberedInvoice");
    }
}
