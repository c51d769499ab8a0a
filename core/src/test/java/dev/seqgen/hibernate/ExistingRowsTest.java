package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * An entity switched to seqgen while its table already holds rows: the sequence starts, or is moved, above
 * the highest id, so inserts from 8 threads never hit a duplicate key.
 */
class ExistingRowsTest {

    static java.util.stream.Stream<TestDatabase> databases() {
        return TestDatabase.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void rowCreatedAndRowMovedLieAboveTheTablesHighestId(TestDatabase db) throws Exception {
        String prefix = "er" + Long.toString(System.nanoTime() % 100000) + "_";
        String seqgenTable = TestDatabase.uniqueTable();
        DataSource dataSource = db.dataSource();
        // First start: the entity table is created empty, the sequence row starts at 1.
        try (SessionFactory first = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), AdoptedOrder.class)) {
            assertThat(first).isNotNull();
        }
        // Rows inserted with explicit ids by another program while the application was down.
        HibernateTesting.insertIds(dataSource, prefix + "adopted_order", 1, 500);
        assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "adopted_order")).isLessThanOrEqualTo(500);

        // Existing row below the table: moved forward at start-up.
        List<Long> moved = insertFromEightThreads(dataSource, prefix, seqgenTable);
        assertThat(moved).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isGreaterThan(500));

        // New row (fresh seqgen table): created above the highest id.
        String freshTable = TestDatabase.uniqueTable();
        List<Long> created = insertFromEightThreads(dataSource, prefix, freshTable);
        assertThat(created).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isGreaterThan(580));
        assertThat(HibernateTesting.ids(dataSource, prefix + "adopted_order")).hasSize(500 + 80 + 80);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void twoSessionFactoriesStartingAtOnceAgree(TestDatabase db) throws Exception {
        String prefix = "es" + Long.toString(System.nanoTime() % 100000) + "_";
        String seqgenTable = TestDatabase.uniqueTable();
        DataSource dataSource = db.dataSource();
        try (SessionFactory first = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), AdoptedOrder.class)) {
            assertThat(first).isNotNull();
        }
        HibernateTesting.insertIds(dataSource, prefix + "adopted_order", 1, 300);
        // Two registries (as two JVMs would have) start and insert at the same time.
        ExecutorService both = Executors.newFixedThreadPool(2);
        try {
            Future<List<Long>> a = both.submit(() -> insertFromEightThreads(dataSource, prefix, seqgenTable));
            Future<List<Long>> b = both.submit(() -> insertFromEightThreads(dataSource, prefix, seqgenTable));
            List<Long> all = new ArrayList<>(a.get());
            all.addAll(b.get());
            assertThat(all).hasSize(160).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isGreaterThan(300));
        } finally {
            both.shutdownNow();
        }
        assertThat(HibernateTesting.ids(dataSource, prefix + "adopted_order")).hasSize(300 + 160);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("databases")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void rowsInsertedAfterTheSessionFactoryStartedAndBeforeTheFirstIdAreSeenToo(TestDatabase db) throws Exception {
        // As Spring Boot's data.sql with spring.jpa.defer-datasource-initialization=true: the session factory
        // builds the (empty) table, then the rows arrive, then the application inserts.
        String prefix = "ed" + Long.toString(System.nanoTime() % 100000) + "_";
        String seqgenTable = TestDatabase.uniqueTable();
        DataSource dataSource = db.dataSource();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), AdoptedOrder.class)) {
            HibernateTesting.insertIds(dataSource, prefix + "adopted_order", 1, 200);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                AdoptedOrder order = new AdoptedOrder();
                HibernateTesting.inTransaction(sessionFactory, session -> session.persist(order));
                ids.add(order.id());
            }
            assertThat(ids).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isGreaterThan(200));
        }
        assertThat(HibernateTesting.ids(dataSource, prefix + "adopted_order")).hasSize(205);
    }

    private static List<Long> insertFromEightThreads(DataSource dataSource, String prefix, String seqgenTable)
            throws Exception {
        // The tests check which ids are issued, not how fast: on a busy machine a background refill (with two
        // session factories starting beside eight threads each) was once later than the default 5 s.
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "update", SeqgenHibernate.DEFAULTS_PREFIX + "acquire-timeout",
                        "PT60S"), AdoptedOrder.class)) {
            return HibernateTesting.persistAdoptedOrdersFromEightThreads(sessionFactory);
        }
    }
}
