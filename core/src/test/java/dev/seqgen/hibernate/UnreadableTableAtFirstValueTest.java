package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;

/**
 * Adoption reads the highest value a table already holds before a sequence's first value. A table that exists
 * but cannot be read (here a view whose rows fail to compute, as a missing SELECT grant or a broken connection
 * would fail) used to count as empty, logged at DEBUG only: the sequence then started at 1 over rows that may hold
 * 1. Now the first value fails, naming the table and the sequence, with the database's error as the cause; the
 * row is not created above nothing, and a later first value reads again.
 */
class UnreadableTableAtFirstValueTest {

    private static final String PREFIX = HibernateTesting.prefix("utf_");

    @Test
    void aTableThatCannotBeReadFailsTheFirstValueWithTheDatabaseErrorAsCause() throws Exception {
        TestDatabase db = TestDatabase.H2;
        String seqgenTable = TestDatabase.uniqueTable();
        String view = PREFIX + "invoice";
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE VIEW " + view + " AS SELECT CAST(x / (x - x) AS BIGINT) AS number,"
                    + " 0 AS transactionTag FROM (VALUES (1)) v(x)");
        }
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "none"), Invoice.class)) {
            assertThatThrownBy(() -> HibernateTesting.inTransaction(sessionFactory,
                    session -> session.persist(new Invoice(1))))
                    // persist() reports a MappingException as JPA's IllegalArgumentException, message kept
                    .hasMessageContaining("could not read table " + view)
                    .hasMessageContaining("sequence 'invoices'")
                    .hasMessageContaining("Division by zero")
                    .hasRootCauseInstanceOf(java.sql.SQLException.class)
                    .satisfies(e -> assertThat(e).hasCauseInstanceOf(SeqgenMappingException.class));
        } finally {
            try (Connection connection = db.dataSource().getConnection();
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP VIEW IF EXISTS " + view);
            }
            db.dropTable(seqgenTable);
        }
    }
}
