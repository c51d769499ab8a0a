package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;

import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/** The auto-configured registry on each database: start-up creation, use, and the give-back at close. */
class SeqgenDatabaseTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqgenAutoConfiguration.class));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void initializeSchemaAlwaysCreatesTheTableAndRowsAndClosingTheContextGivesTheUnusedTailBack(TestDatabase database) {
        String table = TestDatabase.uniqueTable();
        JdbcTemplate jdbc = new JdbcTemplate(database.dataSource());
        try {
            contextRunner.withBean(DataSource.class, () -> unclosable(database))
                    .withPropertyValues("seqgen.table=" + table, "seqgen.schema.initialize=always",
                            "seqgen.sequences.orders.block-size=100",
                            "seqgen.sequences.invoices.strategy=sync", "seqgen.sequences.invoices.initial-value=5000")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(nextValue(jdbc, table, "orders")).isEqualTo(1);
                        assertThat(nextValue(jdbc, table, "invoices")).isEqualTo(5000);
                        assertThat(context.getBean(JdbcSequenceStore.class).dialect().storeName())
                                .isEqualTo(database.toString());

                        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                        assertThat(registry.sequence("orders").nextValues(3)).containsExactly(1, 2, 3);
                        assertThat(nextValue(jdbc, table, "orders")).isEqualTo(101);
                    });
            assertThat(nextValue(jdbc, table, "orders")).as("the tail 4..100 is given back").isEqualTo(4);
        } finally {
            database.dropTable(table);
        }
    }

    private static long nextValue(JdbcTemplate jdbc, String table, String name) {
        return jdbc.queryForObject("SELECT next_value FROM " + table + " WHERE name = ?", Long.class, name);
    }

    /** The shared test pool, hidden from the context's close. */
    private static DataSource unclosable(TestDatabase database) {
        return new DelegatingDataSource(database.dataSource());
    }
}
