package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Setting;
import dev.seqgen.jdbc.JdbcSequenceStore;
import dev.seqgen.testing.TestDatabase;

import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.SessionFactory;
import org.hibernate.Transaction;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SeqgenHibernate#SERIES_WARM_UP_PREFIX} under plain Hibernate, with partitioned multi-tenancy: the listed
 * series of a sequence the entities number per tenant and year are opened when the session factory is built, above
 * the invoices their table already holds, with their first blocks in hand, and only they; a key that is not one of
 * the sequence's series, or a sequence no entity numbers in series, fails the start-up naming the setting and the key.
 * (Schema per tenant: {@code SchemaPerTenantTest}.)
 */
class SeriesWarmUpTest {

    private static final String PREFIX = HibernateTesting.prefix("hwu_");
    private static final String TABLE = PREFIX + "warm_invoice";
    private static final String SETTING = SeqgenHibernate.SERIES_WARM_UP_PREFIX + "warm_invoice_numbers";

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void theListedSeriesAreOpenAboveTheirInvoicesBeforeTheFirstInsert(TestDatabase db) throws Exception {
        String seqgenTable = TestDatabase.uniqueTable();
        DataSource dataSource = db.dataSource();
        try {
            // The invoice table with invoices in it before the start-up, as a restarted application finds it.
            HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    blocks(Map.of(AvailableSettings.HBM2DDL_AUTO, "create")), WarmUpInvoice.class).close();
            insert(dataSource, new Object[] {900_001L, "acme", LocalDate.of(2026, 3, 1), 41L},
                    new Object[] {900_002L, "acme", LocalDate.of(2026, 1, 9), 7L},
                    new Object[] {900_003L, "acme", LocalDate.of(2025, 12, 31), 90L},
                    new Object[] {900_004L, "globex", LocalDate.of(2026, 2, 1), 12L},
                    new Object[] {900_005L, "other", LocalDate.of(2026, 2, 1), 500L});

            try (SessionFactory factory = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    blocks(Map.of(AvailableSettings.HBM2DDL_AUTO, "none", SETTING, "acme/2026, globex/2026")),
                    WarmUpInvoice.class)) {
                SequenceRegistry registry = registry(factory);
                Sequence acme = registry.seriesIfOpen("warm_invoice_numbers", "acme/2026");
                Sequence globex = registry.seriesIfOpen("warm_invoice_numbers", "globex/2026");
                assertThat(acme).as("open once the session factory is built").isNotNull();
                assertThat(globex).isNotNull();
                assertThat(List.of(acme, globex)).allSatisfy(series -> {
                    assertThat(series.stats().remaining()).as("its first block in hand").isEqualTo(10);
                    assertThat(series.stats().reservations()).isEqualTo(1);
                });
                assertThat(registry.openSeries("warm_invoice_numbers")).as("only the listed series")
                        .containsOnlyKeys("acme/2026", "globex/2026");
                assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "warm_invoice_numbers#acme/2026"))
                        .as("a block above acme's 41 of 2026, not above 2025's 90 or another tenant's 500")
                        .isEqualTo(42 + 10);
                assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "warm_invoice_numbers#globex/2026"))
                        .isEqualTo(13 + 10);

                assertThat(persist(factory, "acme", LocalDate.of(2026, 4, 1))).isEqualTo(42);
                assertThat(persist(factory, "acme", LocalDate.of(2026, 4, 2))).isEqualTo(43);
                assertThat(persist(factory, "globex", LocalDate.of(2026, 4, 1))).isEqualTo(13);
                assertThat(List.of(acme, globex)).as("the inserts took the warmed-up blocks, no other")
                        .allSatisfy(series -> assertThat(series.stats().reservations()).isEqualTo(1));
                assertThat(SchemaPerTenantTest.rows(dataSource, seqgenTable))
                        .filteredOn(row -> row.startsWith("warm_invoice_numbers"))
                        .as("no row of the sequence's own, nor of a series not used")
                        .containsExactly("warm_invoice_numbers#acme/2026", "warm_invoice_numbers#globex/2026");
                assertThat(SchemaPerTenantTest.count(dataSource, TABLE)).isEqualTo(5 + 3);
            }
        } finally {
            db.dropTable(TABLE);
            db.dropTable(seqgenTable);
            db.dropTable(seqgenTable + "_kept");
        }
    }

    /** Keys that are not the sequence's series, and a sequence no entity numbers in series: the start-up fails. */
    @Test
    void aKeyThatIsNotOneOfTheSeriesOrAnUnknownSequenceFailsTheStartUpNamingTheSettingAndTheKey() {
        String seqgenTable = TestDatabase.uniqueTable();
        try {
            for (String[] wrong : new String[][] {
                    {"acme", "it has 1 part", "tenant/issueDate:year"},
                    {"acme/2026/x", "it has 3 parts", "tenant/issueDate:year"},
                    {"acme/26", "its part 2, '26', is not a year, as 2026, of attribute 'issueDate'"},
                    {"acme//2026", "a part is empty"}}) {
                assertThatThrownBy(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX,
                        seqgenTable, blocks(Map.of(SETTING, "globex/2026," + wrong[0])), WarmUpInvoice.class).close())
                        .satisfies(e -> assertThat(HibernateTesting.messages(e)).as(wrong[0]).contains(SETTING,
                                "'" + wrong[0] + "'", "sequence 'warm_invoice_numbers'").contains(List.of(wrong)
                                .subList(1, wrong.length)));
            }
            assertThatThrownBy(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX,
                    seqgenTable, blocks(Map.of(SETTING + "s", "acme/2026")), WarmUpInvoice.class).close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e)).contains(SETTING + "s", "acme/2026",
                            "none numbers sequence 'warm_invoice_numberss'"));
            assertThatThrownBy(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX,
                    seqgenTable, blocks(Map.of(SeqgenHibernate.SERIES_WARM_UP_PREFIX + "warm_invoice_ids", "acme")),
                    WarmUpInvoice.class).close())
                    .satisfies(e -> assertThat(HibernateTesting.messages(e)).contains(
                            "seqgen.series.warm-up.warm_invoice_ids", "in one series"));
        } finally {
            TestDatabase.H2.dropTable(TABLE);
            TestDatabase.H2.dropTable(seqgenTable);
            TestDatabase.H2.dropTable(seqgenTable + "_kept");
        }
    }

    /**
     * A framework that requires its registry (the Spring Boot starter) warms up itself, before readiness: the setting
     * in Hibernate's settings (where every system property lands) opens nothing when the session factory is built,
     * and {@link SeqgenHibernate#warmUpSeries} opens the series, telling the sequences it numbers from the others.
     */
    @Test
    void aFrameworkThatRequiresItsRegistryWarmsUpThroughSeqgenHibernate() {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SequenceRegistry given = SequenceRegistry.builder(JdbcSequenceStore.builder(
                TestDatabase.H2.dataSource()).table(seqgenTable).build())
                .sequence("warm_invoice_numbers", SequenceSettings.builder().blockSize(10).build(),
                        Map.of(Setting.BLOCK_SIZE, "the framework's configuration")).build();
                SessionFactory factory = HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(), PREFIX,
                        seqgenTable, blocks(Map.of(SeqgenHibernate.REGISTRY, given,
                                SeqgenHibernate.REGISTRY_REQUIRED, "true", SETTING, "acme/2026", SETTING + "s",
                                "acme/2026")), WarmUpInvoice.class)) {
            assertThat(given.openSeries("warm_invoice_numbers")).as("left to the framework").isEmpty();

            assertThat(SeqgenHibernate.warmUpSeries(factory, "warm_invoice_numbers", List.of("acme/2026"),
                    Duration.ofSeconds(30))).isTrue();
            assertThat(given.seriesIfOpen("warm_invoice_numbers", "acme/2026")).isNotNull()
                    .satisfies(series -> assertThat(series.stats().remaining()).isEqualTo(10));
            assertThat(SeqgenHibernate.warmUpSeries(factory, "orders", List.of("acme/2026"),
                    Duration.ofSeconds(30))).as("a sequence no entity numbers").isFalse();
        } finally {
            TestDatabase.H2.dropTable(TABLE);
            TestDatabase.H2.dropTable(seqgenTable);
            TestDatabase.H2.dropTable(seqgenTable + "_kept");
        }
    }

    private static SequenceRegistry registry(SessionFactory factory) {
        return factory.unwrap(SessionFactoryImplementor.class).getServiceRegistry()
                .requireService(SeqgenRegistryService.class).registry();
    }

    private static long persist(SessionFactory factory, String tenant, LocalDate date) {
        WarmUpInvoice invoice = new WarmUpInvoice(date);
        try (Session session = factory.withOptions().tenantIdentifier(tenant).openSession()) {
            Transaction transaction = session.beginTransaction();
            session.persist(invoice);
            transaction.commit();
        }
        return invoice.number();
    }

    private static void insert(DataSource dataSource, Object[]... rows) throws SQLException {
        HibernateTesting.insert(dataSource, "INSERT INTO " + TABLE + " (id, tenant, issueDate, number)"
                + " VALUES (?, ?, ?, ?)", rows);
    }
    /** The blocks the assertions count on: 10 numbers, 20 ids (tuning is configuration, not an attribute). */
    private static Map<String, Object> blocks(Map<String, Object> settings) {
        Map<String, Object> all = new java.util.HashMap<>(settings);
        all.put(SeqgenHibernate.SEQUENCES_PREFIX + "warm_invoice_numbers.block-size", "10");
        all.put(SeqgenHibernate.SEQUENCES_PREFIX + "warm_invoice_ids.block-size", "20");
        return all;
    }
}
