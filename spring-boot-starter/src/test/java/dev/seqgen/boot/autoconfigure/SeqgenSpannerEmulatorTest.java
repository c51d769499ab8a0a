package dev.seqgen.boot.autoconfigure;

import java.util.concurrent.TimeUnit;
import java.util.List;
import com.google.cloud.spanner.SpannerOptions;
import com.google.cloud.spanner.Dialect;
import com.google.cloud.spanner.DatabaseId;
import com.google.cloud.spanner.DatabaseAdminClient;
import com.google.cloud.NoCredentials;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.spanner.DatabaseClient;
import com.google.cloud.spanner.Spanner;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.spanner.SpannerEmulator;
import dev.seqgen.spanner.SpannerSequenceStore;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The auto-configured Spanner store issuing values on the Cloud Spanner emulator ({@code SPANNER_EMULATOR_HOST});
 * skipped without it, failed when {@code SEQGENTEST_REQUIRE_DATABASES=true}.
 */
class SeqgenSpannerEmulatorTest {

    @RegisterExtension
    static final SpannerEmulator emulator = new SpannerEmulator("""
            CREATE TABLE seqgen_sequences (
              name STRING(64) NOT NULL,
              next_value INT64 NOT NULL,
            ) PRIMARY KEY (name)""");

    /** With an H2 DataSource too: seqgen.store=spanner takes Spanner nevertheless. */
    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    SeqgenSpannerAutoConfiguration.class, SeqgenAutoConfiguration.class))
            .withPropertyValues("spring.datasource.generate-unique-name=true", "seqgen.store=spanner",
                    "seqgen.schema.initialize=always",
                    "seqgen.spanner.operation-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s",
                    "seqgen.defaults.acquire-timeout=" + SpannerEmulator.PATIENCE.toSeconds() + "s");

    @Test
    void theStoreOfTheSpannerPropertiesCreatesItsTableAndServesTheRegistryOnAClientClosedWithTheContext() {
        AtomicReference<Spanner> created = new AtomicReference<>();
        contextRunner.withPropertyValues("seqgen.spanner.project-id=" + SpannerEmulator.PROJECT,
                "seqgen.spanner.instance-id=" + emulator.instanceId(),
                "seqgen.spanner.database-id=" + emulator.databaseId(),
                "seqgen.spanner.emulator-host=" + emulator.host(),
                "seqgen.table=boot_sequences",
                "seqgen.sequences.orders.strategy=batch", "seqgen.sequences.orders.block-size=10",
                "seqgen.sequences.invoices.strategy=async", "seqgen.sequences.invoices.initial-value=1000")
                .run(context -> {
                    assertThat(context).hasSingleBean(SpannerSequenceStore.class)
                            .doesNotHaveBean(JdbcSequenceStore.class).hasBean("seqgenSpanner");
                    created.set(context.getBean("seqgenSpanner", Spanner.class));
                    assertThat(created.get().getOptions().getProjectId()).isEqualTo(SpannerEmulator.PROJECT);
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(context.getBean(SpannerSequenceStore.class).table()).isEqualTo("boot_sequences");
                    // The configured sequences' rows were created at start-up, with the table.
                    assertThat(registry.store().nextValue("invoices")).hasValue(1000);
                    assertThat(distinctValues(registry.sequence("orders"), 25)).hasSize(25).contains(1L, 25L);
                    assertThat(registry.sequence("invoices").next()).isEqualTo(1000);
                    assertThat(registry.sequence("invoices").next()).isEqualTo(1001);
                    assertThat(registry.store().nextValue("orders")).hasValue(31);
                    assertThat(created.get().isClosed()).isFalse();
                });
        assertThat(created.get().isClosed()).isTrue();
    }

    @Test
    void theDatabaseClientBeanIsTheStoresClient() {
        contextRunner.withBean(DatabaseClient.class, emulator::client).withPropertyValues(
                "seqgen.sequences.tickets.strategy=async").run(context -> {
                    assertThat(context).hasSingleBean(SpannerSequenceStore.class).doesNotHaveBean(Spanner.class);
                    SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                    assertThat(registry.sequence("tickets").next()).isEqualTo(1);
                    assertThat(registry.sequence("tickets").next()).isEqualTo(2);
                    // The same row, read through the test's own client.
                    assertThat(emulator.store("seqgen_sequences").nextValue("tickets")).hasValue(3);
                });
    }

    @Test
    void aPostgresqlDialectDatabaseIsRecognisedAndServedWithoutASetting() throws Exception {
        Spanner spanner = SpannerOptions.newBuilder().setProjectId(SpannerEmulator.PROJECT)
                .setEmulatorHost(emulator.host()).setCredentials(NoCredentials.getInstance()).build().getService();
        String database = "bootpg" + Long.toUnsignedString(System.nanoTime(), 36);
        DatabaseAdminClient admin = spanner.getDatabaseAdminClient();
        admin.createDatabase(admin.newDatabaseBuilder(DatabaseId.of(SpannerEmulator.PROJECT, emulator.instanceId(),
                database)).setDialect(Dialect.POSTGRESQL).build(), List.of()).get(60, TimeUnit.SECONDS);
        try {
            contextRunner.withPropertyValues("seqgen.spanner.project-id=" + SpannerEmulator.PROJECT,
                    "seqgen.spanner.instance-id=" + emulator.instanceId(), "seqgen.spanner.database-id=" + database,
                    "seqgen.spanner.emulator-host=" + emulator.host(),
                    "seqgen.sequences.orders.strategy=batch", "seqgen.sequences.orders.block-size=10")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        SequenceRegistry registry = context.getBean(SequenceRegistry.class);
                        assertThat(distinctValues(registry.sequence("orders"), 15)).hasSize(15).contains(1L, 15L);
                        assertThat(registry.store().nextValue("orders")).hasValue(21);
                    });
        } finally {
            admin.dropDatabase(emulator.instanceId(), database);
            spanner.close();
        }
    }

    private static Set<Long> distinctValues(Sequence sequence, int count) {
        Set<Long> values = new HashSet<>();
        for (int i = 0; i < count; i++) {
            values.add(sequence.next());
        }
        return values;
    }
}
