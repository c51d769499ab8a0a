package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.seqgen.KeyOrder;
import dev.seqgen.testing.Concurrently;
import dev.seqgen.testing.TestDatabase;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hotspot-free primary keys: {@code keyOrder = BIT_REVERSED} ids from eight threads are unique, positive and spread
 * over the key space; a restart goes on from the counter row rather than from the table's highest key; a table
 * whose keys came from elsewhere is refused; an int id is refused.
 */
class BitReversedKeysTest {

    private static final String PREFIX = "br_";

    @Entity
    @Table(name = "spread_order")
    public static class SpreadOrder {

        @Id
        @GeneratedValue
        @SeqgenGenerator(sequence = "spread_orders", keyOrder = KeyOrder.BIT_REVERSED, blockSize = 20)
        private Long id;

        Long id() {
            return id;
        }
    }

    @Entity
    @Table(name = "small_spread_order")
    public static class SmallSpreadOrder {

        @Id
        @GeneratedValue
        @SeqgenGenerator(keyOrder = KeyOrder.BIT_REVERSED)
        private Integer id;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void bitReversedIdsAreUniqueSpreadAndGoOnFromTheCounterAfterARestart(TestDatabase db) throws Exception {
        DataSource dataSource = db.dataSource();
        String seqgenTable = TestDatabase.uniqueTable();
        try {
            long[] first;
            try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), SpreadOrder.class)) {
                first = persist(sessionFactory);
            }
            Concurrently.assertUnique(first);
            assertThat(Arrays.stream(first).min().orElseThrow()).isPositive();
            assertThat(Arrays.stream(first).max().orElseThrow()).as("spread: the first keys reach the top half")
                    .isGreaterThanOrEqualTo(1L << 62);
            long[] counters = Concurrently.assertUnique(Arrays.stream(first).map(KeyOrder.BIT_REVERSED::key).toArray());
            long nextCounter = HibernateTesting.nextValue(dataSource, seqgenTable, "spread_orders");
            assertThat(nextCounter).as("the row counts counters, not keys").isGreaterThan(counters[counters.length - 1])
                    .isLessThan(1000);

            long[] second;
            try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "none"), SpreadOrder.class)) {
                second = persist(sessionFactory);
            }
            long[] all = Concurrently.assertUnique(java.util.stream.LongStream.concat(Arrays.stream(first),
                    Arrays.stream(second)).toArray());
            assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "spread_orders"))
                    .as("the restart did not move the counter to the table's highest key").isLessThan(1000);
            assertThat(HibernateTesting.ids(dataSource, PREFIX + "spread_order")).containsExactly(all);
        } finally {
            db.dropTable(PREFIX + "spread_order");
            db.dropTable(seqgenTable);
        }
    }

    @Test
    void aTableWhoseKeysCameFromElsewhereIsRefusedAtStartUp() throws Exception {
        DataSource dataSource = TestDatabase.H2.dataSource();
        String seqgenTable = TestDatabase.uniqueTable();
        try {
            try (SessionFactory created = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), SpreadOrder.class)) {
                assertThat(created).isNotNull();
            }
            TestDatabase.H2.dropTable(seqgenTable); // the counter row is lost
            HibernateTesting.insertIds(dataSource, PREFIX + "spread_order", 1, 10);
            Throwable failure = catchThrowable(() -> HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "none"), SpreadOrder.class).close());
            assertThat(HibernateTesting.messages(failure)).contains("already holds keys (up to 10)")
                    .contains("sequence 'spread_orders' has no counter row").contains("key-order bit-reversed");
        } finally {
            TestDatabase.H2.dropTable(PREFIX + "spread_order");
            TestDatabase.H2.dropTable(seqgenTable);
        }
    }

    @Test
    void anIntIdIsRefusedNamingTheSequence() {
        String seqgenTable = TestDatabase.uniqueTable();
        Throwable failure = catchThrowable(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(),
                PREFIX, seqgenTable, Map.of(), SmallSpreadOrder.class).close());
        assertThat(HibernateTesting.messages(failure)).contains("key-order bit-reversed")
                .contains("an int attribute cannot hold").contains("small_spread_order");
        TestDatabase.H2.dropTable(seqgenTable);
    }

    private static long[] persist(SessionFactory sessionFactory) throws Exception {
        return Concurrently.run(8, thread -> {
            long[] mine = new long[25];
            for (int i = 0; i < mine.length; i++) {
                SpreadOrder order = new SpreadOrder();
                HibernateTesting.inTransaction(sessionFactory, session -> session.persist(order));
                mine[i] = order.id();
            }
            return mine;
        });
    }
}
