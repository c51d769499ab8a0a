package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.seqgen.jdbc.JdbcDialect;
import dev.seqgen.testing.TestDatabase;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
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
                missing, Map.of(SeqgenHibernate.SCHEMA_INITIALIZE, "never"), NumberedInvoice.class).close());
        assertThat(failure).as("what the build threw").isInstanceOf(SeqgenMappingException.class)
                .hasMessageContaining(missing)
                .hasMessageContaining("NumberedInvoice");
    }

    /**
     * The missing table's failure names what can be acted on: the table with every entity and sequence that uses it
     * (not one of them picked at random), the database's error, and the setting and the store's DDL that create the
     * table in plain Hibernate; never a name of seqgen's own making.
     */
    @Test
    void aMissingSequenceTableIsNamedWithEveryUserOfItAndWhatCreatesIt() {
        String missing = TestDatabase.uniqueTable();
        Throwable failure = catchThrowable(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX,
                missing, Map.of(SeqgenHibernate.SCHEMA_INITIALIZE, "never"), NumberedInvoice.class,
                NumberedCreditNote.class).close());
        assertThat(failure).isInstanceOf(SeqgenMappingException.class);
        SeqgenMappingException missingTable = (SeqgenMappingException) failure;
        String prefix = "seqgen's sequence table " + missing + ", used by ";
        assertThat(missingTable.where()).startsWith(prefix);
        assertThat(Arrays.asList(missingTable.where().substring(prefix.length()).split("; ")))
                .containsExactlyInAnyOrder(
                        "entity " + NumberedInvoice.class.getName() + ", id property 'id', sequence"
                                + " 'numbered_invoice_ids'",
                        "entity " + NumberedInvoice.class.getName() + ", property 'number', sequence 'invoice_numbers'",
                        "entity " + NumberedCreditNote.class.getName() + ", id property 'id', sequence"
                                + " 'numbered_credit_note_ids'",
                        "entity " + NumberedCreditNote.class.getName() + ", property 'number', sequence"
                                + " 'credit_note_numbers'");
        assertThat(missingTable.problem()).as("what H2 said").startsWith("the table could not be read in the h2"
                + " database: Table \"" + missing.toUpperCase(java.util.Locale.ROOT) + "\" not found")
                .endsWith("[SQLSTATE 42S02]");
        assertThat(missingTable.action()).isEqualTo("If the table does not exist, create it: let seqgen create it"
                + " (seqgen.schema.initialize=always, the default; it is never here); or run "
                + String.join("; ", JdbcDialect.H2.createTablesSql(missing)) + " in your Flyway or Liquibase"
                + " migrations");
        assertThat(missingTable.getMessage()).doesNotContain("seqgen-table-probe");
    }

    @Test
    void aConfiguredStrategyThatWouldWeakenASyncNumberFailsTheBuildNamingBothSources() {
        String table = TestDatabase.uniqueTable();
        try {
            Throwable failure = catchThrowable(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(),
                    PREFIX, table, Map.of("seqgen.sequences.invoice_numbers.strategy", "async"), NumberedInvoice.class)
                    .close());
            assertThat(failure).isInstanceOf(SeqgenMappingException.class);
            SeqgenMappingException mapping = (SeqgenMappingException) failure;
            assertThat(mapping.where()).contains(NumberedInvoice.class.getName(), "'number'",
                    "sequence 'invoice_numbers'");
            assertThat(mapping.problem()).isEqualTo("@SeqgenNumber declares strategy SYNC (gapless numbers), and the"
                    + " configuration of sequence 'invoice_numbers' sets strategy=async"
                    + " (seqgen.sequences.invoice_numbers.strategy), which would give up the gapless numbers");
            assertThat(mapping.action()).contains("seqgen.sequences.invoice_numbers.allow-weaker-strategy=true");
        } finally {
            TestDatabase.H2.dropTable(table);
        }
    }

    @Test
    void aConfiguredStrategyThatWouldWeakenASyncIdFailsTheBuild() {
        String table = TestDatabase.uniqueTable();
        try {
            Throwable failure = catchThrowable(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(),
                    PREFIX, table, Map.of("seqgen.sequences.invoices.strategy", "batch"), Invoice.class).close());
            assertThat(failure).isInstanceOf(SeqgenMappingException.class)
                    .hasMessageContaining("@SeqgenGenerator declares strategy SYNC (gapless numbers)")
                    .hasMessageContaining("sets strategy=batch (seqgen.sequences.invoices.strategy)");
        } finally {
            TestDatabase.H2.dropTable(table);
        }
    }

    /** Said to be meant, the override applies: ASYNC leaves the number of a rolled-back flush unused. */
    @Test
    void aConfigurationThatSaysItMeansToWeakenASyncNumberApplies() {
        String table = TestDatabase.uniqueTable();
        try (SessionFactory factory = HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX, table,
                Map.of("seqgen.sequences.invoice_numbers.strategy", "async",
                        "seqgen.sequences.invoice_numbers.allow-weaker-strategy", "true"), NumberedInvoice.class)) {
            try (Session session = factory.openSession()) {
                var transaction = session.beginTransaction();
                session.persist(new NumberedInvoice(1));
                session.flush();
                transaction.rollback();
            }
            HibernateTesting.inTransaction(factory, session -> session.persist(new NumberedInvoice(2)));

            List<Long> numbers = HibernateTesting.query(factory, session -> session
                    .createQuery("select i.number from NumberedInvoice i", Long.class).getResultList());
            assertThat(numbers).as("the rolled-back flush's number 1 is a gap under async").containsExactly(2L);
        } finally {
            TestDatabase.H2.dropTable(table);
        }
    }
}
