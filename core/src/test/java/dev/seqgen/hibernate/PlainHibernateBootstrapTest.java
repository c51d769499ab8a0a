package dev.seqgen.hibernate;

import com.zaxxer.hikari.HikariDataSource;
import dev.seqgen.hibernate.packagelevel.PurchaseOrder;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.jpa.HibernatePersistenceConfiguration;
import org.hibernate.tool.schema.Action;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bootstrap docs/hibernate-generator.md shows: JPA's programmatic configuration with a DataSource, no
 * Spring. seqgen builds its registry at startup with a connection of its own, and closing the session factory
 * gives back the unused values and returns that connection.
 */
class PlainHibernateBootstrapTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void seqgensOwnRegistryLivesAndDiesWithTheSessionFactory(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try (HikariDataSource dataSource = db.newPool(3)) {
            Invoice invoice = new Invoice(1);
            PurchaseOrder order = new PurchaseOrder();
            SessionFactory sessionFactory = new HibernatePersistenceConfiguration("orders")
                    .managedClasses(Invoice.class, PurchaseOrder.class)
                    .property(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource)
                    .property(SeqgenHibernate.TABLE, seqgenTable)
                    .property(SeqgenHibernate.SEQUENCES_PREFIX + "orders.block-size", 10)
                    .schemaToolingAction(Action.CREATE)
                    .property(AvailableSettings.PHYSICAL_NAMING_STRATEGY, new HibernateTesting.PrefixedTables("hpb_"))
                    .createEntityManagerFactory();
            try {
                assertThat(dataSource.getHikariPoolMXBean().getActiveConnections())
                        .as("seqgen's dedicated connection, borrowed at startup").isEqualTo(1);
                sessionFactory.inTransaction(session -> {
                    session.persist(invoice);
                    session.persist(order);
                });
                assertThat(invoice.number()).isEqualTo(1);
                assertThat(order.getId()).isEqualTo(1);
                assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "orders"))
                        .as("a BATCH block of 10 in hand, as configured for the sequence").isEqualTo(11);
            } finally {
                sessionFactory.close();
            }
            assertThat(HibernateTesting.nextValue(dataSource, seqgenTable, "orders"))
                    .as("the unused values were given back").isEqualTo(2);
            assertThat(dataSource.getHikariPoolMXBean().getActiveConnections())
                    .as("seqgen's connection went back to the pool").isZero();
        } finally {
            db.dropTable(seqgenTable);
        }
    }
}
