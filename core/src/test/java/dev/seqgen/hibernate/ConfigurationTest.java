package dev.seqgen.hibernate;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where the registry comes from and how configuration meets the annotation: a registry given in
 * {@link SeqgenHibernate#REGISTRY} (as the Spring starter does), or seqgen's own configured by {@code seqgen.*}
 * settings; a value configured for the sequence overrides an attribute, defaults fill unset attributes.
 */
class ConfigurationTest {

    private static final String PREFIX = HibernateTesting.prefix("hcf_");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aGivenRegistryIsUsedItsSequenceSettingsOverrideAndItsDefaultsFillAndItOutlivesTheSessionFactory(
            TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        SequenceSettings defaults = SequenceSettings.builder().blockSize(7).acquireTimeout(Duration.ofSeconds(3))
                .build();
        try (SequenceRegistry registry = SequenceRegistry.builder(
                        JdbcSequenceStore.builder(db.dataSource()).table(seqgenTable).build())
                .defaults(defaults)
                .sequence("tuned", defaults.toBuilder().initialValue(5000).blockSize(10).build())
                .build()) {
            TunedTicket tuned = new TunedTicket();
            DefaultTicket plain = new DefaultTicket();
            try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, "unused",
                    Map.of(SeqgenHibernate.REGISTRY, registry, SeqgenHibernate.REGISTRY_REQUIRED, "true"),
                    TunedTicket.class, DefaultTicket.class)) {
                HibernateTesting.inTransaction(sessionFactory, session -> {
                    session.persist(tuned);
                    session.persist(plain);
                });
            }
            SequenceSettings tunedSettings = settingsOf(registry, "tuned");
            assertThat(tunedSettings.strategy()).as("from the annotation").isEqualTo(Strategy.BATCH);
            assertThat(tunedSettings.blockSize()).as("configured for the sequence").isEqualTo(10);
            assertThat(tunedSettings.initialValue()).as("configured for the sequence").isEqualTo(5000);
            assertThat(tunedSettings.acquireTimeout()).as("a default").isEqualTo(Duration.ofSeconds(3));
            assertThat(tuned.id()).isEqualTo(5000);

            SequenceSettings plainSettings = settingsOf(registry, "default_ticket");
            assertThat(plainSettings).as("all defaults").isEqualTo(defaults);
            assertThat(plain.id()).isEqualTo(1);

            assertThat(registry.sequence("tuned", tunedSettings).next())
                    .as("the given registry is still open after the session factory closed").isEqualTo(5001);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void seqgensOwnRegistryReadsTheSeqgenSettings(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        TunedTicket tuned = new TunedTicket();
        DefaultTicket plain = new DefaultTicket();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of("seqgen.defaults.block-size", "20", "seqgen.defaults.strategy", "batch",
                        "seqgen.sequences.tuned.initial-value", "7000", "seqgen.sequences.tuned.block-size", "10"),
                TunedTicket.class, DefaultTicket.class)) {
            HibernateTesting.inTransaction(sessionFactory, session -> {
                session.persist(tuned);
                session.persist(plain);
            });
            assertThat(tuned.id()).as("configured for the sequence").isEqualTo(7000);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "tuned"))
                    .as("a block of 10, configured for the sequence").isEqualTo(7010);
            assertThat(plain.id()).isEqualTo(1);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "default_ticket"))
                    .as("a block of 20, from seqgen.defaults").isEqualTo(21);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    @Test
    void seqgensOwnRegistryTakesTheIdleTimeoutOfSeries() {
        TestDatabase db = TestDatabase.H2;
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of(SeqgenHibernate.SERIES_IDLE_TIMEOUT, "3m"), SeriesInvoice.class)) {
            SeriesInvoice invoice = new SeriesInvoice("acme", java.time.LocalDate.of(2026, 1, 5));
            HibernateTesting.inTransaction(sessionFactory, session -> session.persist(invoice));
            assertThat(invoice.number()).isEqualTo(1L);
            SequenceRegistry registry = sessionFactory.unwrap(
                    org.hibernate.engine.spi.SessionFactoryImplementor.class).getServiceRegistry()
                    .requireService(SeqgenRegistryService.class).registry();
            assertThat(registry.seriesIdleTimeout()).isEqualTo(Duration.ofMinutes(3));
            assertThat(registry.openSeries("series_invoice_numbers")).containsOnlyKeys("acme/2026");
        } finally {
            db.dropTable(seqgenTable);
        }
        assertStartupFails(db, seqgenTable, Map.of(SeqgenHibernate.SERIES_IDLE_TIMEOUT, "soon"),
                "seqgen.series.idle-timeout", "a duration of 0 (never released) or more");
        db.dropTable(seqgenTable);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void mistakesFailAtStartupWithTheSettingOrEntityNamed(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try {
            assertStartupFails(db, seqgenTable, Map.of(SeqgenHibernate.REGISTRY_REQUIRED, "true"),
                    "seqgen.hibernate.registry", "registry-required is true");
            assertStartupFails(db, seqgenTable, Map.of(SeqgenHibernate.REGISTRY, "registry"),
                    "seqgen.hibernate.registry", "a dev.seqgen.SequenceRegistry object");
            assertStartupFails(db, seqgenTable, Map.of("seqgen.defaults.block-size", "0"),
                    "seqgen.defaults.block-size", "an integer >= 1");
            assertStartupFails(db, seqgenTable, Map.of("seqgen.defaults.blocksize", "10"),
                    "seqgen.defaults.blocksize", "block-size");
            assertStartupFails(db, seqgenTable, Map.of("seqgen.sequences.tuned.strategy", "fast"),
                    "seqgen.sequences.tuned.strategy", "sync, async, batch, async-batch");
            assertStartupFails(db, seqgenTable, Map.of(SeqgenHibernate.TABLE, "seqgen; drop table x"),
                    "seqgen.table", "unquoted identifier");
            // No sequence is of kind native-sequence: the prefix is refused all the same.
            assertStartupFails(db, seqgenTable, Map.of(SeqgenHibernate.SEQUENCE_PREFIX, "9x"),
                    SeqgenHibernate.SEQUENCE_PREFIX, "'9x'");
            assertThatThrownBy(() -> HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, Map.of(),
                    TunedTicket.class, ConflictingTicket.class).close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e))
                            .contains("sequence 'tuned'")
                            .containsPattern("entity dev\\.seqgen\\.hibernate\\.(Tuned|Conflicting)Ticket")
                            .contains("first created with"));
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    @Test
    void aConnectionProviderWithoutDataSourceIsReportedAtStartup() {
        Configuration configuration = new Configuration().addAnnotatedClass(TunedTicket.class);
        configuration.getProperties().put(AvailableSettings.JAKARTA_JDBC_URL, "jdbc:h2:mem:seqgen-no-datasource");
        assertThatThrownBy(() -> configuration.buildSessionFactory().close())
                .satisfies(e -> assertThat(HibernateTesting.messages(e))
                        .contains("does not expose one")
                        .contains(SeqgenHibernate.REGISTRY));
    }

    private static void assertStartupFails(TestDatabase db, String seqgenTable, Map<String, Object> settings,
            String... expectedInMessage) {
        assertThatThrownBy(() -> HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable, settings,
                TunedTicket.class).close())
                .satisfies(e -> assertThat(HibernateTesting.messages(e)).contains(expectedInMessage));
    }

    private static SequenceSettings settingsOf(SequenceRegistry registry, String name) {
        return registry.sequences().stream().filter(s -> s.name().equals(name)).map(Sequence::settings)
                .findFirst().orElseThrow(() -> new AssertionError("no sequence " + name));
    }
}
