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
 * whose keys came from elsewhere is adopted by their counters, or left to a skip range; an int id is refused.
 */
class BitReversedKeysTest {

    private static final String PREFIX = HibernateTesting.prefix("br_");

    /** Blocks of 20 for {@code spread_orders}: the counters the tests hand out stay far below 1000. */
    private static final String BLOCK_SIZE = SeqgenHibernate.SEQUENCES_PREFIX + "spread_orders.block-size";

    @Entity
    @Table(name = "spread_order")
    public static class SpreadOrder {

        @Id
        @GeneratedValue
        @SeqgenGenerator(sequence = "spread_orders", keyOrder = KeyOrder.BIT_REVERSED)
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

    @Entity
    @Table(name = "plain_order")
    public static class PlainOrder {

        @Id
        @GeneratedValue
        @SeqgenGenerator(sequence = "plain_orders")
        private Long id;
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
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "create", BLOCK_SIZE, "20"), SpreadOrder.class)) {
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
                    Map.of(AvailableSettings.HBM2DDL_AUTO, "none", BLOCK_SIZE, "20"), SpreadOrder.class)) {
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

    /**
     * A table filled with bit-reversed keys by another program (Spanner's own bit-reversed sequence, or seqgen before
     * its counter row was lost): with no counter row, seqgen maps every existing key back to its counter and starts
     * above the highest, so no new key equals an old one.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void bitReversedKeysFromElsewhereAreAdoptedByTheirCounters(TestDatabase db) throws Exception {
        DataSource dataSource = db.dataSource();
        String seqgenTable = TestDatabase.uniqueTable();
        try {
            long[] existing = java.util.stream.LongStream.rangeClosed(1, 300).map(KeyOrder.BIT_REVERSED::key).toArray();
            long[] added = startOverKeysFromElsewhere(db, seqgenTable, existing, Map.of());
            assertThat(Arrays.stream(added).map(KeyOrder.BIT_REVERSED::counter).min().orElseThrow())
                    .as("the counters of the new keys start above the existing keys' highest counter (300)")
                    .isGreaterThan(300);
            assertThat(HibernateTesting.ids(dataSource, PREFIX + "spread_order")).as("old and new keys, all rows")
                    .hasSize(existing.length + added.length).doesNotHaveDuplicates();
        } finally {
            db.dropTable(PREFIX + "spread_order");
            db.dropTable(seqgenTable);
        }
    }

    /**
     * A table holding the keys 1..1000 from another program: with skip-range 1..1000 seqgen leaves them to the range
     * and its counter starts at 1; without it, seqgen starts above their counters (1 is the image of 2^62), which
     * is safe but leaves less than half of the counters, and says so.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void keysInTheSkipRangeAreLeftToItAndKeysOutsideAreAdopted(TestDatabase db) throws Exception {
        DataSource dataSource = db.dataSource();
        String ranged = TestDatabase.uniqueTable();
        String unranged = TestDatabase.uniqueTable();
        try {
            long[] oldIds = java.util.stream.LongStream.rangeClosed(1, 1000).toArray();
            long[] added = startOverKeysFromElsewhere(db, ranged, oldIds,
                    Map.of(SeqgenHibernate.SEQUENCES_PREFIX + "spread_orders.skip-range", "1..1000"));
            assertThat(Arrays.stream(added).min().orElseThrow()).as("no key in the range").isGreaterThan(1000);
            assertThat(HibernateTesting.nextValue(dataSource, ranged, "spread_orders"))
                    .as("the counter started at 1: the existing keys are the range's").isLessThan(1000);
            assertThat(HibernateTesting.ids(dataSource, PREFIX + "spread_order")).doesNotHaveDuplicates()
                    .hasSize(1000 + added.length);

            db.dropTable(PREFIX + "spread_order");
            added = startOverKeysFromElsewhere(db, unranged, oldIds, Map.of());
            assertThat(HibernateTesting.nextValue(dataSource, unranged, "spread_orders"))
                    .as("without the range, the counter starts above the counter of key 1 (2^62)")
                    .isGreaterThan(1L << 62);
            assertThat(HibernateTesting.ids(dataSource, PREFIX + "spread_order")).doesNotHaveDuplicates()
                    .hasSize(1000 + added.length);
        } finally {
            db.dropTable(PREFIX + "spread_order");
            db.dropTable(ranged);
            db.dropTable(unranged);
        }
    }

    /**
     * A table whose keys came from elsewhere: the entity's table created (its counter row in {@code seqgenTable}
     * dropped: seqgen has none), {@code keys} inserted, then seqgen started over it with {@code settings}.
     *
     * @return the keys seqgen then handed out
     */
    private static long[] startOverKeysFromElsewhere(TestDatabase db, String seqgenTable, long[] keys,
            Map<String, Object> settings) throws Exception {
        DataSource dataSource = db.dataSource();
        try (SessionFactory created = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), SpreadOrder.class)) {
            assertThat(created).isNotNull();
        }
        db.dropTable(seqgenTable);
        try (java.sql.Connection connection = dataSource.getConnection();
                java.sql.PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO " + PREFIX + "spread_order (id) VALUES (?)")) {
            connection.setAutoCommit(false);
            for (long key : keys) {
                insert.setLong(1, key);
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
        Map<String, Object> started = new java.util.HashMap<>(settings);
        started.put(AvailableSettings.HBM2DDL_AUTO, "none");
        started.put(BLOCK_SIZE, "20");
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(dataSource, PREFIX, seqgenTable, started,
                SpreadOrder.class)) {
            return persist(sessionFactory);
        }
    }

    /** A skip range set in configuration for a sequence the annotation keeps sequential fails the start-up. */
    @Test
    void aSkipRangeOnASequentialSequenceFailsTheStartUp() {
        String seqgenTable = TestDatabase.uniqueTable();
        Throwable failure = catchThrowable(() -> HibernateTesting.sessionFactory(TestDatabase.H2.dataSource(),
                PREFIX, seqgenTable, Map.of(SeqgenHibernate.SEQUENCES_PREFIX + "plain_orders.skip-range", "1..10"),
                PlainOrder.class).close());
        assertThat(HibernateTesting.messages(failure)).contains("'skip-range'").contains("sequence 'plain_orders'")
                .contains("whose key-order is sequential").contains("PlainOrder");
        TestDatabase.H2.dropTable(seqgenTable);
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
