package dev.seqgen.jdbc;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.SequenceUnavailableException;
import dev.seqgen.Strategy;
import dev.seqgen.testing.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What only the JDBC table store does, on H2, PostgreSQL and MariaDB (the database is the first part of each display
 * name); the contract every store meets is {@link JdbcSequenceStoreConformanceTest}.
 */
class JdbcSequenceStoreTest {

    private final List<Runnable> cleanups = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        cleanups.forEach(Runnable::run);
    }

    private JdbcSequenceStore store(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        cleanups.add(() -> database.dropTable(table));
        return JdbcSequenceStore.builder(database.dataSource()).table(table).build();
    }


    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void syncRefusesAConnectionInAutoCommitMode(TestDatabase database) throws Exception {
        JdbcSequenceStore store = store(database);
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.SYNC).build()).build();
                Connection connection = database.dataSource().getConnection()) {
            assertThatThrownBy(() -> registry.sequence("invoices").nextInTransaction(connection))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("auto-commit");
            assertThat(store.nextValue("invoices")).hasValue(1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void createsAMissingTableAndRowAtTheInitialValue(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        assertThat(store.dialect().storeName()).isEqualTo(database.toString());
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC).initialValue(1000).build()).build()) {
            assertThat(registry.sequence("orders").next()).isEqualTo(1000);
            assertThat(store.nextValue("orders")).hasValue(1001);
            // A second store over the same table leaves the existing row alone.
            store.createSequence("orders", 1);
            assertThat(store.nextValue("orders")).hasValue(1001);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void missingTableWithoutSchemaCreationIsAnErrorNamingTheTable(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        JdbcSequenceStore store = JdbcSequenceStore.builder(database.dataSource()).table(table).createTable(false).build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            assertThatThrownBy(() -> registry.sequence("orders")).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining(table);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void deletedRowIsAnErrorNamingTheSequence(TestDatabase database) {
        JdbcSequenceStore store = store(database);
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.ASYNC).build()).build()) {
            Sequence orders = registry.sequence("orders");
            orders.next();
            database.execute("DELETE FROM " + store.table() + " WHERE name = 'orders'");
            assertThatThrownBy(orders::next).isInstanceOf(SequenceUnavailableException.class)
                    .hasMessageContaining("sequence 'orders'").hasMessageContaining("no row");
        }
    }
}
