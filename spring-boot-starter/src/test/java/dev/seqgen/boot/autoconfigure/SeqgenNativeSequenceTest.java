package dev.seqgen.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.CounterKind;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.boot.actuate.SeqgenEndpoint;
import dev.seqgen.boot.actuate.SeqgenHealthIndicator;
import dev.seqgen.boot.actuate.SeqgenEndpoint.SequenceDescriptor;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.spi.SequenceStore;
import dev.seqgen.testing.TestDatabase;

import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/** {@code seqgen.defaults.kind=native-sequence} on each database: the store, start-up creation, use, and refusals. */
class SeqgenNativeSequenceTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SeqgenAutoConfiguration.class));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void nativeSequenceKindCountsInADatabaseSequenceCreatedAtStartUp(TestDatabase database) {
        String prefix = TestDatabase.uniqueTable() + "_";
        try {
            contextRunner.withBean(DataSource.class, () -> unclosable(database))
                    .withPropertyValues("seqgen.defaults.kind=native-sequence", "seqgen.jdbc.sequence-prefix=" + prefix,
                            "seqgen.sequences.orders.block-size=100", "seqgen.sequences.orders.initial-value=1000")
                    .run(context -> {
                        assertThat(context).hasNotFailed().hasSingleBean(NativeSequenceStore.class)
                                .doesNotHaveBean(JdbcSequenceStore.class);
                        NativeSequenceStore store = context.getBean(NativeSequenceStore.class);
                        assertThat(store.prefix()).isEqualTo(prefix);
                        assertThat(store.nextValue("orders")).as("created at start-up").hasValue(1000);

                        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                        assertThat(registry.sequence("orders").nextValues(3)).containsExactly(1000, 1001, 1002);
                        assertThat(store.nextValue("orders")).hasValue(1100);
                        SequenceDescriptor described = new SeqgenEndpoint(registry, List.of("orders")).sequence("orders");
                        assertThat(described.storeNextValue()).as("what the endpoint and health read").isEqualTo(1100);
                        assertThat(described.storeError()).isNull();
                        assertThat(new SeqgenHealthIndicator(registry, List.of("orders"), 0.8).health().getStatus())
                                .isEqualTo(Status.UP);
                    });
        } finally {
            database.execute("DROP SEQUENCE IF EXISTS " + quote(database, prefix + "orders"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aSyncSequenceFailsTheStartUpNamingTheKindItInherits(TestDatabase database) {
        String prefix = TestDatabase.uniqueTable() + "_";
        contextRunner.withBean(DataSource.class, () -> unclosable(database))
                .withPropertyValues("seqgen.defaults.kind=NATIVE_SEQUENCE", "seqgen.jdbc.sequence-prefix=" + prefix,
                        "seqgen.sequences.invoices.strategy=sync")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(dev.seqgen.SequenceConfigurationException.class)
                        .hasStackTraceContaining("'seqgen.sequences.invoices.kind': native-sequence")
                        .hasStackTraceContaining("gapless")
                        .hasStackTraceContaining("inherited from seqgen.defaults.kind"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aBadPrefixFailsTheStartUpNamingTheProperty(TestDatabase database) {
        contextRunner.withBean(DataSource.class, () -> unclosable(database))
                .withPropertyValues("seqgen.defaults.kind=native-sequence", "seqgen.jdbc.sequence-prefix=no-dashes")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("seqgen.jdbc.sequence-prefix"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void idsOnDatabaseSequencesAndGaplessNumbersOnTheTableShareOneRegistry(TestDatabase database) {
        String prefix = TestDatabase.uniqueTable() + "_";
        String table = TestDatabase.uniqueTable();
        try {
            contextRunner.withBean(DataSource.class, () -> unclosable(database))
                    .withPropertyValues("seqgen.defaults.kind=native-sequence", "seqgen.jdbc.sequence-prefix=" + prefix,
                            "seqgen.table=" + table, "seqgen.schema.initialize=always",
                            "seqgen.sequences.orders.block-size=100", "seqgen.sequences.invoices.strategy=sync",
                            "seqgen.sequences.invoices.kind=table")
                    .run(context -> {
                        assertThat(context).hasNotFailed().hasSingleBean(NativeSequenceStore.class);
                        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                        assertThat(registry.storeOf("orders").kind()).isEqualTo(CounterKind.NATIVE_SEQUENCE);
                        assertThat(registry.storeOf("invoices").kind()).isEqualTo(CounterKind.TABLE);
                        assertThat(registry.storeOf("invoices").sqlTable()).map(SequenceStore.SqlTable::name)
                                .contains(table);
                        assertThat(registry.sequence("orders").nextValues(2)).containsExactly(1, 2);
                        assertThat(context.getBean(NativeSequenceStore.class).nextValue("orders")).hasValue(101);
                        assertThat(registry.storeOf("invoices").nextValue("invoices")).as("the table row")
                                .hasValue(1);
                        SeqgenEndpoint endpoint = new SeqgenEndpoint(registry, List.of("orders", "invoices"));
                        assertThat(endpoint.sequence("orders").kind()).isEqualTo("native-sequence");
                        assertThat(endpoint.sequence("invoices").kind()).isEqualTo("table");
                        assertThat(endpoint.sequence("invoices").storeNextValue()).isEqualTo(1);
                        assertThat(new SeqgenHealthIndicator(registry, List.of("orders", "invoices"), 0.8).health()
                                .getStatus()).isEqualTo(Status.UP);
                    });
        } finally {
            database.execute("DROP SEQUENCE IF EXISTS " + quote(database, prefix + "orders"));
            database.dropTable(table);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aSyncSequenceInheritingTheNativeKindFailsNamingThePropertyAndWhereItComesFrom(TestDatabase database) {
        contextRunner.withBean(DataSource.class, () -> unclosable(database))
                .withPropertyValues("seqgen.defaults.kind=native-sequence", "seqgen.sequences.invoices.strategy=sync")
                .run(context -> {
                    assertThat(context).hasFailed();
                    StringBuilder messages = new StringBuilder();
                    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                        messages.append(t.getMessage()).append('\n');
                    }
                    assertThat(messages).contains("invalid value for 'seqgen.sequences.invoices.kind': native-sequence")
                            .contains("inherited from seqgen.defaults.kind").contains("table for a sync sequence");
                });
    }

    /**
     * A store of the application's own that is not seqgen's JDBC support (the Spanner store is one; here the
     * in-memory store stands for it) serves the table kind only: a sequence configured on a database sequence
     * fails the start-up naming its property and why.
     */
    @org.junit.jupiter.api.Test
    void aNativeKindBesideAStoreOtherThanTheJdbcOnesFailsNamingTheProperty() {
        contextRunner.withBean(SequenceStore.class, dev.seqgen.testing.InMemorySequenceStore::new)
                .withPropertyValues("seqgen.sequences.orders.kind=native-sequence")
                .run(context -> {
                    assertThat(context).hasFailed();
                    StringBuilder messages = new StringBuilder();
                    for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                        messages.append(t.getMessage()).append('\n');
                    }
                    assertThat(messages).contains("seqgen.sequences.orders.kind").contains("native-sequence")
                            .contains("seqgen's JDBC support only");
                });
    }

    private static String quote(TestDatabase database, String name) {
        return database == TestDatabase.MARIADB ? "`" + name + "`" : '"' + name + '"';
    }

    /** The shared test pool, hidden from the context's close. */
    private static DataSource unclosable(TestDatabase database) {
        return new DelegatingDataSource(database.dataSource());
    }
}
