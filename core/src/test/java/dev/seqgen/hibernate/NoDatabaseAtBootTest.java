package dev.seqgen.hibernate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.seqgen.testing.TestDatabase;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.junit.jupiter.api.Test;

/**
 * With {@code hibernate.boot.allow_jdbc_metadata_access=false} (how Spring's AOT processing and offline
 * metadata builds run Hibernate), building the session factory opens no connection; the first id does the
 * sequence's I/O.
 */
class NoDatabaseAtBootTest {

    private static final String PREFIX = HibernateTesting.prefix("ndb_");

    @Test
    void buildingTheSessionFactoryOpensNoConnectionAndTheFirstIdStartsTheSequence() {
        DataSource h2 = TestDatabase.H2.dataSource();
        String seqgenTable = TestDatabase.uniqueTable();
        AtomicInteger connections = new AtomicInteger();
        DataSource counting = new CountingDataSource(h2, connections);
        // The entity table exists beforehand: hbm2ddl would need a connection.
        try (SessionFactory schema = HibernateTesting.sessionFactory(h2, PREFIX, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "create"), AdoptedOrder.class)) {
            assertThat(schema.isOpen()).isTrue();
        }
        try (SessionFactory offline = HibernateTesting.sessionFactory(counting, PREFIX, seqgenTable,
                Map.of(AvailableSettings.HBM2DDL_AUTO, "none", AvailableSettings.ALLOW_METADATA_ON_BOOT, "false",
                        AvailableSettings.DIALECT, "org.hibernate.dialect.H2Dialect"),
                AdoptedOrder.class)) {
            assertThat(connections).hasValue(0);
            AdoptedOrder order = new AdoptedOrder();
            HibernateTesting.inTransaction(offline, session -> session.persist(order));
            assertThat(order.id()).isPositive();
            assertThat(connections.get()).isPositive();
        }
    }

    /** Counts the connections taken; everything else goes to the pool. */
    private record CountingDataSource(DataSource target, AtomicInteger count) implements DataSource {

        @Override
        public Connection getConnection() throws SQLException {
            count.incrementAndGet();
            return target.getConnection();
        }

        @Override
        public Connection getConnection(String username, String password) throws SQLException {
            count.incrementAndGet();
            return target.getConnection(username, password);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return target.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            target.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            target.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return target.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            if (iface.isInstance(this)) {
                return iface.cast(this);
            }
            throw new SQLException("not a wrapper of " + iface.getName());
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return iface.isInstance(this);
        }
    }
}
