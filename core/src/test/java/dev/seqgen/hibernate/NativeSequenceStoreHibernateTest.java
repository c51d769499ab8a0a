package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.SequenceRegistry;
import dev.seqgen.SequenceSettings;
import dev.seqgen.Strategy;
import dev.seqgen.jdbc.NativeSequenceStore;
import dev.seqgen.testing.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
            HibernateTesting.insertIds(dataSource, prefix + "adopted_order", 10_001, 10_500);

            List<Long> second = insertFromEightThreads(dataSource, prefix, sequencePrefix, "update");
            assertThat(second).hasSize(80).doesNotHaveDuplicates()
                    .allSatisfy(id -> assertThat(id).isGreaterThan(10_500));
            assertThat(HibernateTesting.ids(dataSource, prefix + "adopted_order")).hasSize(80 + 500 + 80);
        } finally {
            db.execute("DROP SEQUENCE IF EXISTS " + (db == TestDatabase.MARIADB ? "`" + sequencePrefix
                    + "adopted_order`" : "\"" + sequencePrefix + "adopted_order\""));
        }
    }

    /**
     * A gapless (SYNC) number with a registry on database sequences fails the start-up naming the store kind and
     * the property that keeps gapless numbers, not another strategy.
     */
    @org.junit.jupiter.api.Test
    void aSyncNumberOverTheNativeSequenceStoreIsRefusedNamingTheStoreKind() {
        String sequencePrefix = TestDatabase.uniqueTable() + "_";
        NativeSequenceStore store = NativeSequenceStore.builder(TestDatabase.H2.dataSource()).prefix(sequencePrefix)
                .build();
        try (SequenceRegistry registry = SequenceRegistry.builder(store).build()) {
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> HibernateTesting.sessionFactory(
                    TestDatabase.H2.dataSource(), "nk_", TestDatabase.uniqueTable(),
                    Map.of(SeqgenHibernate.REGISTRY, registry), NumberedInvoice.class).close());
            assertThat(failure).as("what a plain Hibernate user catches, with no wrapper above it")
                    .isInstanceOf(SeqgenMappingException.class);
            assertThat(failure).hasMessageContaining("property 'number'")
                    .hasMessageContaining("native-sequence store")
                    .hasMessageContaining("seqgen.sequences.invoice_numbers.kind=table")
                    .hasMessageNotContaining("strategy=async");
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
            ids.addAll(HibernateTesting.persistAdoptedOrdersFromEightThreads(sessionFactory));
        }
        return ids;
    }
}
