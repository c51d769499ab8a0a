package dev.seqgen.hibernate;

import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.engine.spi.SessionFactoryImplementor;
import org.hibernate.id.enhanced.Optimizer;
import org.hibernate.id.enhanced.PooledOptimizer;
import org.hibernate.id.enhanced.SequenceStyleGenerator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SeqgenPooledOptimizer} behind an unchanged {@code @SequenceGenerator(allocationSize = 50)}: enabled
 * by one setting, and safe beside a node still on Hibernate's pooled optimizer, because it reads the
 * sequence the same way.
 */
class PooledOptimizerDropInTest {

    private static final int THREADS_PER_NODE = 4;
    private static final int TRANSACTIONS_PER_THREAD = 25;
    private static final int ENTITIES_PER_TRANSACTION = 10;

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void runsBesideHibernatesPooledOptimizerOnOneSequenceWithoutDuplicates(TestDatabase db) throws Exception {
        Map<String, Object> dropIn = Map.of(AvailableSettings.PREFERRED_POOLED_OPTIMIZER,
                SeqgenPooledOptimizer.class.getName());
        try (SessionFactory seqgenNode = HibernateTesting.sessionFactory(db.dataSource(), "hpo_", "unused", dropIn,
                        LegacyOrder.class);
                SessionFactory pooledNode = HibernateTesting.sessionFactory(db.dataSource(), "hpo_", "unused",
                        Map.of(AvailableSettings.HBM2DDL_AUTO, "none"), LegacyOrder.class)) {
            assertThat(optimizer(seqgenNode)).isInstanceOf(SeqgenPooledOptimizer.class);
            assertThat(optimizer(pooledNode)).isInstanceOf(PooledOptimizer.class);

            long[] ids = Concurrently.run(2 * THREADS_PER_NODE, thread -> {
                SessionFactory node = thread % 2 == 0 ? seqgenNode : pooledNode;
                long[] mine = new long[TRANSACTIONS_PER_THREAD * ENTITIES_PER_TRANSACTION];
                int taken = 0;
                for (int t = 0; t < TRANSACTIONS_PER_THREAD; t++) {
                    LegacyOrder[] orders = new LegacyOrder[ENTITIES_PER_TRANSACTION];
                    HibernateTesting.inTransaction(node, session -> {
                        for (int e = 0; e < orders.length; e++) {
                            orders[e] = new LegacyOrder();
                            session.persist(orders[e]);
                        }
                    });
                    for (LegacyOrder order : orders) {
                        mine[taken++] = order.id();
                    }
                }
                return mine;
            });
            long[] sorted = Concurrently.assertUnique(ids);
            assertThat(HibernateTesting.ids(db.dataSource(), "hpo_legacy_order")).containsExactly(sorted);
        }
    }

    private static Optimizer optimizer(SessionFactory sessionFactory) {
        SequenceStyleGenerator generator = (SequenceStyleGenerator) sessionFactory
                .unwrap(SessionFactoryImplementor.class).getMappingMetamodel()
                .getEntityDescriptor(LegacyOrder.class).getGenerator();
        return generator.getOptimizer();
    }
}
