package dev.seqgen.hibernate;

import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An invoice table that already holds numbers 1..66 (under a unique constraint) adopting a gapless
 * {@code @SeqgenNumber}: the numbers continue at 67, whether seqgen creates the sequence's row (a new store) or finds
 * it behind the column (a row made before the numbers arrived), never restarting at 1 over existing numbers.
 */
class ExistingNumbersTest {

    private static final int EXISTING = 66;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void numbersContinueAboveTheColumnsHighestWhetherTheRowIsNewOrBehind(TestDatabase db) throws SQLException {
        String prefix = "en" + Long.toString(System.nanoTime() % 100000) + "_";
        String table = prefix + "numbered_invoice";
        String seqgenTable = TestDatabase.uniqueTable();
        String freshSeqgenTable = TestDatabase.uniqueTable();
        DataSource dataSource = db.dataSource();
        Map<String, Object> existingSchema = Map.of(AvailableSettings.HBM2DDL_AUTO, "none");
        try {
            // The application before: its schema, and the row of invoice_numbers made while the table was empty.
            HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), NumberedInvoice.class).close();
            assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "invoice_numbers")).isEqualTo(1);
            insertNumbered(dataSource, table);

            // A new store: the row is created above the highest number.
            try (SessionFactory fresh = HibernateTesting.sessionFactory(dataSource, prefix, freshSeqgenTable,
                    existingSchema, NumberedInvoice.class)) {
                assertThat(persist(fresh, 3)).containsExactly(67L, 68L, 69L);
            }
            // The old row, still at 1, behind the column: moved forward at start-up.
            assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "invoice_numbers")).isEqualTo(1);
            try (SessionFactory behind = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                    existingSchema, NumberedInvoice.class)) {
                assertThat(persist(behind, 2)).containsExactly(70L, 71L);
            }
            assertThat(numbers(dataSource, table)).containsExactly(LongStream.rangeClosed(1, EXISTING + 5).toArray());
        } finally {
            db.dropTable(table);
            db.dropTable(seqgenTable);
            db.dropTable(freshSeqgenTable);
        }
    }

    private static List<Long> persist(SessionFactory sessionFactory, int invoices) {
        List<Long> numbers = new ArrayList<>();
        for (int i = 0; i < invoices; i++) {
            NumberedInvoice invoice = new NumberedInvoice(1);
            HibernateTesting.inTransaction(sessionFactory, session -> session.persist(invoice));
            numbers.add(invoice.number());
        }
        return numbers;
    }

    /** The invoices the application already has: ids and numbers 1..66. */
    private static void insertNumbered(DataSource dataSource, String table) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO " + table + " (id, number, transactionTag) VALUES (?, ?, 0)")) {
            connection.setAutoCommit(false);
            for (int i = 1; i <= EXISTING; i++) {
                insert.setLong(1, i);
                insert.setLong(2, i);
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
    }

    private static long[] numbers(DataSource dataSource, String table) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT number FROM " + table + " ORDER BY number");
                ResultSet rs = select.executeQuery()) {
            List<Long> numbers = new ArrayList<>();
            while (rs.next()) {
                numbers.add(rs.getLong(1));
            }
            return numbers.stream().mapToLong(Long::longValue).toArray();
        }
    }
}
