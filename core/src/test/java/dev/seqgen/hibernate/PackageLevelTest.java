package dev.seqgen.hibernate;

import dev.seqgen.hibernate.packagelevel.CreditNote;
import dev.seqgen.hibernate.packagelevel.CustomerAccount;
import dev.seqgen.hibernate.packagelevel.LegacyItem;
import dev.seqgen.hibernate.packagelevel.PurchaseOrder;
import dev.seqgen.hibernate.packagelevel.Shipment;
import dev.seqgen.testing.TestDatabase;
import org.hibernate.SessionFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.TreeSet;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package-level form: {@code @SeqgenGenerator} in {@code package-info.java} serves the package's
 * {@code @GeneratedValue} ids, named by the generator name or the entity; annotations on an id or a class win.
 */
class PackageLevelTest {

    private static final String PREFIX = HibernateTesting.prefix("hpl_");

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.seqgen.testing.TestDatabase#all")
    void thePackageAnnotationServesGeneratedValueIdsOfThePackage(TestDatabase db) {
        String seqgenTable = TestDatabase.uniqueTable();
        try (SessionFactory sessionFactory = HibernateTesting.sessionFactory(db.dataSource(), PREFIX, seqgenTable,
                Map.of("seqgen.defaults.block-size", "10"), PurchaseOrder.class, CustomerAccount.class,
                CreditNote.class, Shipment.class, LegacyItem.class)) {
            PurchaseOrder[] orders = {new PurchaseOrder(), new PurchaseOrder(), new PurchaseOrder()};
            CustomerAccount account = new CustomerAccount();
            CreditNote creditNote = new CreditNote();
            Shipment shipment = new Shipment();
            LegacyItem legacyItem = new LegacyItem();
            HibernateTesting.inTransaction(sessionFactory, session -> {
                for (PurchaseOrder order : orders) {
                    session.persist(order);
                }
                session.persist(account);
                session.persist(creditNote);
                session.persist(shipment);
                session.persist(legacyItem);
            });

            assertThat(new long[] {orders[0].getId(), orders[1].getId(), orders[2].getId()})
                    .containsExactly(1, 2, 3);
            assertThat(account.getId()).isEqualTo(1);
            assertThat(creditNote.getId()).isEqualTo(1);
            assertThat(shipment.getId()).isEqualTo(1);
            assertThat(legacyItem.getId()).isNotNull();

            assertThat(sequenceNames(db.dataSource(), seqgenTable)).as("seqgen sequences")
                    .containsExactly("credit_notes", "customer_account", "orders", "shipment");
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "orders"))
                    .as("BATCH from the package, with blocks of 10 from the configured defaults").isEqualTo(11);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "customer_account")).isEqualTo(11);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "credit_notes"))
                    .as("SYNC, from the id's own annotation").isEqualTo(2);
            assertThat(HibernateTesting.nextValue(db.dataSource(), seqgenTable, "shipment"))
                    .as("ASYNC, from the class annotation").isEqualTo(2);
        } finally {
            db.dropTable(seqgenTable);
        }
    }

    private static TreeSet<String> sequenceNames(DataSource dataSource, String table) {
        try (Connection connection = dataSource.getConnection(); Statement select = connection.createStatement();
                ResultSet rs = select.executeQuery("SELECT name FROM " + table)) {
            TreeSet<String> names = new TreeSet<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            return names;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
