package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link SeqgenHibernate#warmUp}: the sequences of a session factory's entities opened before the first value, as
 * the first value would open them (above the ids their tables hold by then), with their first blocks in hand.
 */
class HibernateWarmUpTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void warmUpAdoptsTheRowsInsertedAfterTheSessionFactoryStartedAndTakesTheConfiguredBlockFirst(TestDatabase db)
            throws Exception {
        String prefix = "wu" + Long.toString(System.nanoTime() % 100000) + "_";
        String seqgenTable = TestDatabase.uniqueTable();
        DataSource dataSource = db.dataSource();
        try (SessionFactory factory = HibernateTesting.sessionFactory(dataSource, prefix, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), AdoptedOrder.class)) {
            // Rows that arrive after the session factory was built, as a deferred data.sql inserts them.
            HibernateTesting.insertIds(dataSource, prefix + "adopted_order", 1, 500);

            assertThat(SeqgenHibernate.warmUp(factory, Duration.ofSeconds(30))).containsExactly("adopted_order");
            assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "adopted_order"))
                    .as("moved above the table's 500 ids, then a first block of the configured block-size and a"
                            + " second reserved (of that size or, after a slow first reservation, a little more)")
                    .isGreaterThanOrEqualTo(501 + 2 * 1000);
            assertThat(SeqgenHibernate.warmUp(factory, Duration.ofSeconds(30))).as("nothing left to open").isEmpty();

            HibernateTesting.inTransaction(factory, session -> session.persist(new AdoptedOrder()));
            assertThat(HibernateTesting.ids(dataSource, prefix + "adopted_order")).hasSize(501).contains(501L);
        } finally {
            db.dropTable(prefix + "adopted_order");
            db.dropTable(seqgenTable);
        }
    }
}
