package dev.seqgen.boot.data.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.Sequence;
import dev.seqgen.SequenceRegistry;
import dev.seqgen.Strategy;
import dev.seqgen.boot.autoconfigure.SeqgenAutoConfiguration;
import dev.seqgen.boot.data.jdbc.badname.BadlyNamedNote;
import dev.seqgen.boot.data.jdbc.badtype.TextIdNote;
import dev.seqgen.boot.data.jdbc.embedded.CompositeIdShipment;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcDelivery;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcDelivery.Numbering;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcDelivery.Tracking;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcDeliveryRepository;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcInvoice;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcInvoiceRepository;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcOrder;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcOrderLine;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcOrderRepository;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcParcel;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcTicket;
import dev.seqgen.boot.data.jdbc.invoices.SeqgenJdbcTicketRepository;
import dev.seqgen.boot.data.jdbc.twosources.DoublyNumberedNote;
import dev.seqgen.testing.TestDatabase;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.data.relational.core.mapping.NamingStrategy;
import org.springframework.data.relational.core.mapping.RelationalPersistentEntity;
import org.springframework.data.relational.core.mapping.RelationalPersistentProperty;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Ids and gapless numbers of Spring Data JDBC aggregates, on each database. */
class SeqgenDataJdbcTest {

    private static final String INVOICE_NUMBERS = "seqgen_jdbc_invoice_number";
    private static final String DELIVERY_NUMBERS = "seqgen_jdbc_delivery_number";

    /** This test's aggregate tables (JUnit makes an instance per test). */
    private final Tables tables = new Tables();

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                    DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
                    TransactionAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class,
                    SeqgenAutoConfiguration.class, SeqgenDataJdbcAutoConfiguration.class));

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aNewAggregateGetsItsIdAndNumberAndAnUpdateKeepsThem(TestDatabase database) {
        run(database, context -> {
            SeqgenJdbcInvoiceRepository invoices = context.getBean(SeqgenJdbcInvoiceRepository.class);
            SeqgenJdbcInvoice saved = invoices.save(new SeqgenJdbcInvoice("ada"));
            assertThat(saved.getId()).isEqualTo(1);
            assertThat(saved.getNumber()).isEqualTo(1);
            SeqgenJdbcInvoice second = invoices.save(new SeqgenJdbcInvoice("grace"));
            assertThat(second.getId()).isEqualTo(2);
            assertThat(second.getNumber()).isEqualTo(2);

            saved.setCustomer("ada lovelace");
            SeqgenJdbcInvoice updated = invoices.save(saved);
            assertThat(updated.getId()).isEqualTo(1);
            assertThat(updated.getNumber()).isEqualTo(1);
            SeqgenJdbcInvoice read = invoices.findById(1L).orElseThrow();
            assertThat(read.getCustomer()).isEqualTo("ada lovelace");
            assertThat(read.getNumber()).isEqualTo(1);
            assertThat(invoices.count()).isEqualTo(2);
            assertThat(opened(context.getBean(SequenceRegistry.class), tables.invoice()).strategy())
                    .as("the id's sequence, named by the table, with the default strategy")
                    .isEqualTo(Strategy.ASYNC_BATCH);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void saveAllTakesItsNumbersInOneIncrement(TestDatabase database) {
        run(database, context -> {
            SequenceRegistry registry = context.getBean(SequenceRegistry.class);
            List<SeqgenJdbcInvoice> saved = inTransaction(context, false, () -> context.getBean(SeqgenJdbcInvoiceRepository.class)
                    .saveAll(IntStream.range(0, 1000).mapToObj(i -> new SeqgenJdbcInvoice("c" + i)).toList()));
            assertThat(saved).extracting(SeqgenJdbcInvoice::getNumber)
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, 1000).boxed().toList());
            assertThat(saved).extracting(SeqgenJdbcInvoice::getId).doesNotHaveDuplicates().doesNotContainNull();
            assertThat(opened(registry, INVOICE_NUMBERS).stats().reservations())
                    .as("one increment for the 1,000 numbers of the call").isEqualTo(1);
            assertThat(opened(registry, tables.invoice()).stats().reservations())
                    .as("ids from blocks: a few reservations, not one per aggregate").isLessThan(10);
            assertThat(nextValue(context, INVOICE_NUMBERS)).isEqualTo(1001);

            SeqgenJdbcInvoice one = inTransaction(context, false,
                    () -> context.getBean(SeqgenJdbcInvoiceRepository.class).save(new SeqgenJdbcInvoice("next")));
            assertThat(one.getNumber()).isEqualTo(1001);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void savesOneByOneInATransactionTakeGrowingIncrementsAndGiveTheUnusedTailBack(TestDatabase database) {
        run(database, context -> {
            SeqgenJdbcInvoiceRepository invoices = context.getBean(SeqgenJdbcInvoiceRepository.class);
            List<Long> numbers = inTransaction(context, false, () -> IntStream.range(0, 10)
                    .mapToObj(i -> invoices.save(new SeqgenJdbcInvoice("c" + i)).getNumber()).toList());
            assertThat(numbers).containsExactlyElementsOf(LongStream.rangeClosed(1, 10).boxed().toList());
            assertThat(opened(context.getBean(SequenceRegistry.class), INVOICE_NUMBERS).stats().reservations())
                    .as("increments of 1, 1, 2, 4 and 8 values for 10 numbers").isEqualTo(5);
            assertThat(nextValue(context, INVOICE_NUMBERS)).as("the 6 values taken and not used were given back")
                    .isEqualTo(11);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void anInsertOfAggregatesWithAssignedIdsKeepsThemAndNumbersTheAggregates(TestDatabase database) {
        run(database, context -> {
            JdbcAggregateTemplate template = context.getBean(JdbcAggregateTemplate.class);
            SequenceRegistry registry = context.getBean(SequenceRegistry.class);
            SeqgenJdbcInvoice one = inTransaction(context, false,
                    () -> template.insert(SeqgenJdbcInvoice.withAssignedId(77, "assigned")));
            assertThat(one.getId()).isEqualTo(77);
            assertThat(one.getNumber()).isEqualTo(1);
            List<SeqgenJdbcInvoice> more = inTransaction(context, false, () -> template.insertAll(List.of(
                    SeqgenJdbcInvoice.withAssignedId(78, "a"), SeqgenJdbcInvoice.withAssignedId(79, "b"))));
            assertThat(more).extracting(SeqgenJdbcInvoice::getId).containsExactly(78L, 79L);
            assertThat(more).extracting(SeqgenJdbcInvoice::getNumber).containsExactly(2L, 3L);
            assertThat(opened(registry, INVOICE_NUMBERS).stats().reservations())
                    .as("one increment per call").isEqualTo(2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void anImmutableAggregateWithAnIntIdGetsItThroughItsWither(TestDatabase database) {
        run(database, context -> {
            SeqgenJdbcTicketRepository tickets = context.getBean(SeqgenJdbcTicketRepository.class);
            List<SeqgenJdbcTicket> saved = tickets.saveAll(List.of(new SeqgenJdbcTicket(0, "a"), new SeqgenJdbcTicket(0, "b")));
            assertThat(saved).extracting(SeqgenJdbcTicket::id).containsExactly(1, 2);
            assertThat(tickets.findById(2)).map(SeqgenJdbcTicket::note).contains("b");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void entitiesBelowTheRootGetTheirIdsAtEverySaveAndKeepThem(TestDatabase database) {
        run(database, context -> {
            SeqgenJdbcOrderRepository orders = context.getBean(SeqgenJdbcOrderRepository.class);
            SeqgenJdbcOrder order = new SeqgenJdbcOrder();
            order.getLines().add(new SeqgenJdbcOrderLine(null, "a"));
            order.getLines().add(new SeqgenJdbcOrderLine(null, "b"));
            SeqgenJdbcOrder saved = orders.save(order);
            assertThat(saved.getId()).isEqualTo(1);
            assertThat(saved.getLines()).extracting(SeqgenJdbcOrderLine::id).containsExactly(1L, 2L);

            saved.getLines().add(new SeqgenJdbcOrderLine(null, "c"));
            SeqgenJdbcOrder updated = orders.save(saved);
            assertThat(updated.getId()).isEqualTo(1);
            assertThat(orders.findById(1L).orElseThrow().getLines())
                    .containsExactly(new SeqgenJdbcOrderLine(1L, "a"), new SeqgenJdbcOrderLine(2L, "b"),
                            new SeqgenJdbcOrderLine(3L, "c"));
            assertThat(orders.count()).isEqualTo(1);
        });
    }

    /**
     * Numbers inside embedded objects, one level and two levels down: a new aggregate gets them, an update keeps
     * them, and a null embedded object takes none (nothing to store it in; no gap in the gapless sequence).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void numbersInsideEmbeddedObjectsAreGivenToNewAggregatesAndKeptByUpdates(TestDatabase database) {
        run(database, context -> {
            SeqgenJdbcDeliveryRepository deliveries = context.getBean(SeqgenJdbcDeliveryRepository.class);
            SeqgenJdbcDelivery first = deliveries.save(new SeqgenJdbcDelivery(new Numbering(null, "A"),
                    new Tracking(null)));
            SeqgenJdbcDelivery unnumbered = deliveries.save(new SeqgenJdbcDelivery(null, null));
            SeqgenJdbcDelivery second = deliveries.save(new SeqgenJdbcDelivery(new Numbering(null, "A"),
                    new Tracking(null)));
            assertThat(List.of(first, second)).extracting(delivery -> delivery.getNumbering().number(),
                    delivery -> delivery.getTracking().code()).containsExactly(tuple(1L, 1), tuple(2L, 2));
            assertThat(unnumbered.getNumbering()).isNull();
            assertThat(unnumbered.getTracking()).isNull();

            first.setNumbering(new Numbering(first.getNumbering().number(), "B"));
            deliveries.save(first);
            SeqgenJdbcDelivery read = deliveries.findById(first.getId()).orElseThrow();
            assertThat(read.getNumbering()).isEqualTo(new Numbering(1L, "B"));
            assertThat(read.getTracking()).isEqualTo(new Tracking(1));
            assertThat(deliveries.findById(unnumbered.getId()).orElseThrow().getNumbering()).isNull();
            assertThat(nextValue(context, DELIVERY_NUMBERS)).isEqualTo(3);
            assertThat(nextValue(context, tables.delivery() + "_label_tracking_code")).isGreaterThan(2);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void entitiesInsideAnEmbeddedObjectGetTheirIdsAtEverySaveAndKeepThem(TestDatabase database) {
        run(database, context -> {
            SeqgenJdbcDeliveryRepository deliveries = context.getBean(SeqgenJdbcDeliveryRepository.class);
            SeqgenJdbcDelivery delivery = new SeqgenJdbcDelivery(null, null);
            delivery.getParcels().add(new SeqgenJdbcParcel(null, "a"));
            delivery.getParcels().add(new SeqgenJdbcParcel(null, "b"));
            SeqgenJdbcDelivery saved = deliveries.save(delivery);
            assertThat(saved.getParcels()).containsExactly(new SeqgenJdbcParcel(1L, "a"),
                    new SeqgenJdbcParcel(2L, "b"));

            saved.getParcels().add(new SeqgenJdbcParcel(null, "c"));
            deliveries.save(saved);
            assertThat(deliveries.findById(saved.getId()).orElseThrow().getParcels()).containsExactlyInAnyOrder(
                    new SeqgenJdbcParcel(1L, "a"), new SeqgenJdbcParcel(2L, "b"), new SeqgenJdbcParcel(3L, "c"));
        });
    }

    /**
     * A rolled-back save leaves no gap in a gapless number inside an embedded object, and a saveAll numbers its new
     * aggregates in one increment, those with a null embedded object drawing nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void gaplessNumbersInsideEmbeddedObjectsSurviveARollbackAndTakeOneIncrementPerSaveAll(TestDatabase database) {
        run(database, context -> {
            SeqgenJdbcDeliveryRepository deliveries = context.getBean(SeqgenJdbcDeliveryRepository.class);
            inTransaction(context, true, () -> deliveries.save(new SeqgenJdbcDelivery(new Numbering(null, "A"),
                    null)));
            SequenceRegistry registry = context.getBean(SequenceRegistry.class);
            long before = opened(registry, DELIVERY_NUMBERS).stats().reservations();
            List<SeqgenJdbcDelivery> saved = inTransaction(context, false, () -> deliveries.saveAll(
                    IntStream.range(0, 100).mapToObj(i -> new SeqgenJdbcDelivery(
                            i % 10 == 9 ? null : new Numbering(null, "A"), null)).toList()));
            assertThat(saved).filteredOn(delivery -> delivery.getNumbering() != null)
                    .extracting(delivery -> delivery.getNumbering().number())
                    .as("the rolled-back number is taken again").containsExactlyElementsOf(
                            LongStream.rangeClosed(1, 90).boxed().toList());
            assertThat(opened(registry, DELIVERY_NUMBERS).stats().reservations() - before)
                    .as("one increment for the 90 numbers of the call").isEqualTo(1);
            assertThat(nextValue(context, DELIVERY_NUMBERS)).isEqualTo(91);
            assertThat(context.getBean(JdbcTemplate.class).queryForList("SELECT numbering_number FROM "
                    + tables.delivery() + " WHERE numbering_number IS NOT NULL ORDER BY numbering_number", Long.class))
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, 90).boxed().toList());
        });
    }

    /**
     * 16 threads save invoices in transactions of one to three, and every third transaction rolls back after its
     * inserts: the committed numbers are exactly 1..n, in the order of their commits.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void rolledBackSavesLeaveNoGapAcrossSixteenThreads(TestDatabase database) throws Exception {
        run(database, context -> {
            SeqgenJdbcInvoiceRepository invoices = context.getBean(SeqgenJdbcInvoiceRepository.class);
            int threads = 16;
            int transactionsPerThread = 6;
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Integer>> committed = new ArrayList<>();
            try {
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    committed.add(pool.submit(() -> {
                        start.await();
                        int saved = 0;
                        for (int i = 0; i < transactionsPerThread; i++) {
                            int size = 1 + (thread + i) % 3;
                            boolean rollback = (thread * transactionsPerThread + i) % 3 == 0;
                            inTransaction(context, rollback, () -> invoices.saveAll(IntStream.range(0, size)
                                    .mapToObj(n -> new SeqgenJdbcInvoice("t" + thread)).toList()));
                            saved += rollback ? 0 : size;
                        }
                        return saved;
                    }));
                }
                start.countDown();
                int total = 0;
                for (Future<Integer> future : committed) {
                    total += future.get(120, TimeUnit.SECONDS);
                }
                JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
                List<Long> numbers = new ArrayList<>(
                        jdbc.queryForList("SELECT number FROM " + tables.invoice(), Long.class));
                Collections.sort(numbers);
                assertThat(total).as("a third of the transactions rolled back").isLessThan(threads * 2
                        * transactionsPerThread);
                assertThat(numbers).containsExactlyElementsOf(LongStream.rangeClosed(1, total).boxed().toList());
                assertThat(jdbc.queryForList("SELECT id FROM " + tables.invoice(), Long.class))
                        .hasSize(total).doesNotHaveDuplicates();
                assertThat(nextValue(context, INVOICE_NUMBERS)).isEqualTo(total + 1);
            } finally {
                pool.shutdownNow();
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aTableThatHoldsRowsGetsIdsAndNumbersAboveThem(TestDatabase database) {
        createTables(database);
        for (int i = 1; i <= 50; i++) {
            database.execute("INSERT INTO " + tables.invoice() + " (id, number, customer) VALUES (" + (i * 10)
                    + ", " + i + ", 'old')");
        }
        for (int i = 1; i <= 7; i++) {
            database.execute("INSERT INTO " + tables.delivery() + " (id, numbering_number, numbering_series) VALUES ("
                    + i + ", " + i + ", 'old')");
        }
        run(database, false, context -> {
            SeqgenJdbcInvoice saved = context.getBean(SeqgenJdbcInvoiceRepository.class).save(new SeqgenJdbcInvoice("new"));
            assertThat(saved.getId()).isEqualTo(501);
            assertThat(saved.getNumber()).isEqualTo(51);
            SeqgenJdbcDelivery delivery = context.getBean(SeqgenJdbcDeliveryRepository.class)
                    .save(new SeqgenJdbcDelivery(new Numbering(null, "new"), null));
            assertThat(delivery.getNumbering().number()).as("above the embedded object's prefixed column").isEqualTo(8);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aSyncNumberOutsideATransactionIsRefused(TestDatabase database) {
        run(database, context -> {
            JdbcAggregateTemplate template = context.getBean(JdbcAggregateTemplate.class);
            assertThatThrownBy(() -> template.save(new SeqgenJdbcInvoice("no transaction")))
                    .hasMessageContainingAll(SeqgenJdbcInvoice.class.getName(), "property 'number'",
                            "sequence '" + INVOICE_NUMBERS + "'", "outside a transaction");
            assertThat(context.getBean(JdbcTemplate.class)
                    .queryForObject("SELECT COUNT(*) FROM " + tables.invoice(), Long.class)).isZero();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void aConfigurationThatSaysItMeansToWeakenTheAnnotationsSyncOverridesIt(TestDatabase database) {
        run(database, "seqgen.sequences." + INVOICE_NUMBERS + ".strategy=async", "seqgen.sequences."
                + INVOICE_NUMBERS + ".allow-weaker-strategy=true", context -> {
            JdbcAggregateTemplate template = context.getBean(JdbcAggregateTemplate.class);
            assertThat(template.save(new SeqgenJdbcInvoice("no transaction needed")).getNumber()).isEqualTo(1);
            assertThat(opened(context.getBean(SequenceRegistry.class), INVOICE_NUMBERS).strategy())
                    .isEqualTo(Strategy.ASYNC);
        });
    }

    @Test
    void aConfiguredStrategyThatWouldWeakenTheAnnotationsSyncFailsTheStartUp() {
        contextRunner.withUserConfiguration(Aggregates.class).withPropertyValues(datasource(TestDatabase.H2))
                .withPropertyValues("seqgen.schema.initialize=always",
                        "seqgen.sequences." + INVOICE_NUMBERS + ".strategy=async")
                .run(context -> assertThat(seqgenError(context)).hasMessageContainingAll(
                        SeqgenJdbcInvoice.class.getName(), "property 'number'", "sequence '" + INVOICE_NUMBERS + "'",
                        "@SeqgenValue declares strategy SYNC (gapless numbers), and the configuration sets"
                                + " strategy=async (seqgen.sequences[" + INVOICE_NUMBERS + "].strategy)",
                        "seqgen.sequences[" + INVOICE_NUMBERS + "].allow-weaker-strategy=true"));
    }

    @Test
    void aPropertyOfATypeThatCannotHoldTheValueFailsTheStartUp() {
        assertTheStartUpFails(BadType.class,
                TextIdNote.class.getName(), "property 'reference'",
                "sequence 'seqgen_jdbc_text_note_reference'", "java.lang.String",
                "Long, long, Integer or int");
    }

    @Test
    void aSequenceNameThatIsNotAllowedFailsTheStartUp() {
        assertTheStartUpFails(BadName.class,
                BadlyNamedNote.class.getName(), "id property 'id'", "sequence 'notes; drop table'");
    }

    @Test
    void aSeqgenValueInsideACompositeIdFailsTheStartUp() {
        assertTheStartUpFails(CompositeId.class,
                CompositeIdShipment.class.getName(), "property 'key.number'",
                "sequence 'seqgen_jdbc_shipment_number'", "composite id (@Id @Embedded)");
    }

    @Test
    void anIdWithSpringDatasSequenceTooFailsTheStartUp() {
        assertTheStartUpFails(TwoSources.class,
                DoublyNumberedNote.class.getName(), "id property 'id'", "sequence 'doubly_numbered_note'",
                "@Sequence", "Keep one of @SeqgenValue and @Sequence");
    }

    @Test
    void seqgenDisabledLeavesSpringDataJdbcAlone() {
        contextRunner.withUserConfiguration(Aggregates.class).withPropertyValues(datasource(TestDatabase.H2))
                .withPropertyValues("seqgen.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(SeqgenAggregateCallback.class)
                        .doesNotHaveBean(SequenceRegistry.class).hasSingleBean(JdbcAggregateTemplate.class));
    }

    @Test
    void withoutSpringDataJdbcTheCallbackIsNotThere() {
        contextRunner.withUserConfiguration(Aggregates.class).withPropertyValues(datasource(TestDatabase.H2))
                .withClassLoader(new FilteredClassLoader("org.springframework.data.relational"))
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(SeqgenAggregateCallback.class).hasSingleBean(SequenceRegistry.class));
    }

    private void run(TestDatabase database, ContextTest test) {
        run(database, true, (String[]) null, test);
    }

    private void run(TestDatabase database, String property, ContextTest test) {
        run(database, true, new String[] { property }, test);
    }

    private void run(TestDatabase database, String property, String another, ContextTest test) {
        run(database, true, new String[] { property, another }, test);
    }

    private void run(TestDatabase database, boolean createTables, ContextTest test) {
        run(database, createTables, (String[]) null, test);
    }

    /**
     * Runs the test in an application over fresh tables and a sequence table of its own, all named for this test
     * alone (two builds may share a database server); drops them after.
     */
    private void run(TestDatabase database, boolean createTables, String[] properties, ContextTest test) {
        if (createTables) {
            createTables(database);
        }
        String table = TestDatabase.uniqueTable();
        try {
            contextRunner.withUserConfiguration(Aggregates.class).withPropertyValues(datasource(database))
                    .withBean(NamingStrategy.class, tables::naming)
                    .withPropertyValues("seqgen.table=" + table, "seqgen.schema.initialize=always",
                            "spring.datasource.hikari.maximum-pool-size=24")
                    .withPropertyValues(properties == null ? new String[0] : properties)
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        test.run(context);
                    });
        } finally {
            database.dropTable(table);
            dropTables(database);
        }
    }

    private void createTables(TestDatabase database) {
        dropTables(database);
        database.execute("CREATE TABLE " + tables.invoice() + " (id BIGINT NOT NULL PRIMARY KEY, number BIGINT NOT"
                + " NULL UNIQUE, customer VARCHAR(100))");
        database.execute("CREATE TABLE " + tables.delivery() + " (id BIGINT NOT NULL PRIMARY KEY, numbering_number"
                + " BIGINT UNIQUE, numbering_series VARCHAR(20), label_tracking_code INT)");
        database.execute("CREATE TABLE " + tables.parcel() + " (id BIGINT NOT NULL PRIMARY KEY, seqgen_jdbc_delivery"
                + " BIGINT NOT NULL, content VARCHAR(100))");
        database.execute("CREATE TABLE " + tables.ticket() + " (id INT NOT NULL PRIMARY KEY, note VARCHAR(100))");
        database.execute("CREATE TABLE " + tables.order() + " (id BIGINT NOT NULL PRIMARY KEY)");
        database.execute("CREATE TABLE " + tables.orderLine() + " (id BIGINT NOT NULL PRIMARY KEY,"
                + " seqgen_jdbc_order BIGINT NOT NULL, seqgen_jdbc_order_key INT NOT NULL, product VARCHAR(100))");
    }

    private void dropTables(TestDatabase database) {
        database.dropTable(tables.invoice());
        database.dropTable(tables.parcel());
        database.dropTable(tables.delivery());
        database.dropTable(tables.ticket());
        database.dropTable(tables.orderLine());
        database.dropTable(tables.order());
    }

    /**
     * The aggregates' tables of one test: the names Spring Data JDBC derives from the classes, each with a suffix of
     * this test's own (the sequences of the ids, named by the tables, are then this test's own too). The columns
     * that refer to the order keep the order's class-derived name.
     */
    private record Tables(String suffix) {

        Tables() {
            this("_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36));
        }

        String invoice() {
            return "seqgen_jdbc_invoice" + suffix;
        }

        String delivery() {
            return "seqgen_jdbc_delivery" + suffix;
        }

        String parcel() {
            return "seqgen_jdbc_parcel" + suffix;
        }

        String ticket() {
            return "seqgen_jdbc_ticket" + suffix;
        }

        String order() {
            return "seqgen_jdbc_order" + suffix;
        }

        String orderLine() {
            return "seqgen_jdbc_order_line" + suffix;
        }

        NamingStrategy naming() {
            return new NamingStrategy() {
                @Override
                public String getTableName(Class<?> type) {
                    return NamingStrategy.super.getTableName(type) + suffix;
                }

                @Override
                public String getReverseColumnName(RelationalPersistentEntity<?> owner) {
                    return NamingStrategy.super.getTableName(owner.getType());
                }

                @Override
                public String getReverseColumnName(RelationalPersistentProperty property) {
                    return NamingStrategy.super.getTableName(property.getOwner().getType());
                }
            };
        }
    }

    private static <T> T inTransaction(AssertableApplicationContext context, boolean rollback,
            java.util.function.Supplier<T> work) {
        return new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).execute(status -> {
            T result = work.get();
            if (rollback) {
                status.setRollbackOnly();
            }
            return result;
        });
    }

    /** Starts the application of these aggregates on H2 and expects seqgen to fail it with this message. */
    private void assertTheStartUpFails(Class<?> aggregates, String... message) {
        contextRunner.withUserConfiguration(aggregates).withPropertyValues(datasource(TestDatabase.H2))
                .withPropertyValues("seqgen.schema.initialize=always")
                .run(context -> assertThat(seqgenError(context)).hasMessageContainingAll(message));
    }

    /** The start-up failure seqgen raised, wherever Spring wrapped it. */
    private static Throwable seqgenError(AssertableApplicationContext context) {
        Throwable failure = context.getStartupFailure();
        while (failure != null && !(failure instanceof SeqgenAggregateException)) {
            failure = failure.getCause();
        }
        assertThat(failure).as("a SeqgenAggregateException in " + context.getStartupFailure()).isNotNull();
        return failure;
    }

    /** The sequence the callback opened (asking the registry with its settings for the name would differ). */
    private static Sequence opened(SequenceRegistry registry, String name) {
        return registry.sequences().stream().filter(sequence -> sequence.name().equals(name)).findFirst()
                .orElseThrow();
    }

    private static long nextValue(AssertableApplicationContext context, String sequence) {
        return context.getBean(SequenceRegistry.class).store().nextValue(sequence).orElseThrow();
    }

    private static String[] datasource(TestDatabase database) {
        HikariDataSource shared = (HikariDataSource) database.dataSource();
        return new String[] { "spring.datasource.url=" + shared.getJdbcUrl(),
                "spring.datasource.username=" + shared.getUsername(),
                "spring.datasource.password=" + (shared.getPassword() == null ? "" : shared.getPassword()) };
    }

    @FunctionalInterface
    private interface ContextTest {
        void run(AssertableApplicationContext context) throws Exception;
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = SeqgenJdbcInvoice.class)
    static class Aggregates {
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = TextIdNote.class)
    static class BadType {
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = BadlyNamedNote.class)
    static class BadName {
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = DoublyNumberedNote.class)
    static class TwoSources {
    }

    @Configuration(proxyBeanMethods = false)
    @AutoConfigurationPackage(basePackageClasses = CompositeIdShipment.class)
    static class CompositeId {
    }

}
