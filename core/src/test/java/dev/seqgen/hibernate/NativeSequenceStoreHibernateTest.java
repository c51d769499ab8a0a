package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
 * The Hibernate generator over a registry on the native-sequence store: the database sequence is created at
 * start-up, and moved above rows inserted with explicit ids while the application was down.
 */
class NativeSequenceStoreHibernateTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void theDatabaseSequenceStartsAboveTheTablesExistingRows(TestDatabase db) throws Exception {
        String prefix = "ns" + Long.toString(System.nanoTime() % 100000) + "_";
        String sequencePrefix = TestDatabase.uniqueTable() + "_";
        DataSource dataSource = db.dataSource();
        try {
            List<Long> first = insertFromEightThreads(dataSource, prefix, sequencePrefix, "create");
            assertThat(first).hasSize(80).doesNotHaveDuplicates().allSatisfy(id -> assertThat(id).isBetween(1L, 200L));

            // Rows inserted with explicit ids by another program while the application was down.
            insertIds(dataSource, prefix + "adopted_order", 10_001, 10_500);

            List<Long> second = insertFromEightThreads(dataSource, prefix, sequencePrefix, "update");
            assertThat(second).hasSize(80).doesNotHaveDuplicates()
                    .allSatisfy(id -> assertThat(id).isGreaterThan(10_500));
            assertThat(HibernateTesting.ids(dataSource, prefix + "adopted_order")).hasSize(80 + 500 + 80);
        } finally {
            db.execute("DROP SEQUENCE IF EXISTS " + (db == TestDatabase.MARIADB ? "`" + sequencePrefix
                    + "adopted_order`" : "\"" + sequencePrefix + "adopted_order\""));
        }
    }

    private static List<Long> insertFromEightThreads(DataSource dataSource, String prefix, String sequencePrefix,
            String ddl) throws Exception {
        NativeSequenceStore store = NativeSequenceStore.builder(dataSource).prefix(sequencePrefix).build();
        List<Long> ids = new ArrayList<>();
        try (SequenceRegistry registry = SequenceRegistry.builder(store)
                .defaults(SequenceSettings.builder().strategy(Strategy.BATCH).blockSize(100).build()).build();
                SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, prefix,
                        TestDatabase.uniqueTable(), Map.of(AvailableSettings.HBM2DDL_AUTO, ddl,
                                SeqgenHibernate.REGISTRY, registry), AdoptedOrder.class)) {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<List<Long>>> futures = new ArrayList<>();
                for (int t = 0; t < 8; t++) {
                    futures.add(pool.submit(() -> {
                        List<Long> mine = new ArrayList<>();
                        for (int i = 0; i < 10; i++) {
                            AdoptedOrder order = new AdoptedOrder();
                            HibernateTesting.inTransaction(sessionFactory, session -> session.persist(order));
                            mine.add(order.id());
                        }
                        return mine;
                    }));
                }
                for (Future<List<Long>> future : futures) {
                    ids.addAll(future.get());
                }
            } finally {
                pool.shutdownNow();
            }
        }
        return ids;
    }

    private static void insertIds(DataSource dataSource, String table, int from, int to) throws Exception {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
            connection.setAutoCommit(false);
            for (int id = from; id <= to; id++) {
                insert.setLong(1, id);
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
    }
}
